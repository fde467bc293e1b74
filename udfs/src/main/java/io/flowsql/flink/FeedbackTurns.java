package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.pipeline.DialogueTurn;
import org.apache.flink.api.common.functions.MapFunction;

/** Reads an answer from the answers topic back as the dialogue turn later questions of its dialogue see. */
public class FeedbackTurns implements MapFunction<AnswerEvent, FeedbackTurn> {
    private static final int SUMMARY_LIMIT = 200;

    @Override
    public FeedbackTurn map(AnswerEvent answer) {
        String dialogue = answer.dialogueId != null ? answer.dialogueId : answer.requestId;
        return new FeedbackTurn(dialogue, turnOf(answer));
    }

    public static DialogueTurn turnOf(AnswerEvent answer) {
        return new DialogueTurn(answer.requestId, answer.question, answer.questionType, answer.sql, summaryOf(answer));
    }

    /** "answered, 3 rows: a | b", or the status with the reply or error, cut to a short line. */
    static String summaryOf(AnswerEvent answer) {
        StringBuilder s = new StringBuilder(String.valueOf(answer.status));
        if (answer.result != null) {
            s.append(", ").append(answer.result.rowCount).append(" rows");
            if (!answer.result.rows.isEmpty()) {
                s.append(": ").append(String.join(" | ", answer.result.rows.get(0)));
            }
        } else if (answer.response != null) {
            s.append(": ").append(answer.response);
        } else if (answer.error != null) {
            s.append(": ").append(answer.error);
        }
        return s.length() <= SUMMARY_LIMIT ? s.toString() : s.substring(0, SUMMARY_LIMIT - 3) + "...";
    }
}

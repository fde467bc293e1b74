package io.flowsql.job.sql;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionParse;

/**
 * One answer as the {@code TEXT_TO_SQL} function returns it: the answer's main fields as columns, its trace and the
 * whole answer as JSON text (the answers topic's format). A question refused before any stage runs (it does not pass the
 * questions schema, names an unknown stage or database...) is status {@code rejected}, its reject kind as the error kind
 * and, instead of an answer, the dead letter the DataStream job would have written (the dead-letters topic's format).
 */
public record SqlAnswer(String requestId, String dialogueId, String status, String questionType, String sql, String reply,
                        String errorKind, String error, String trace, String answer, String deadLetter) {

    /** Status of a question refused before any stage ran (the DataStream job dead-letters such a question instead). */
    public static final String REJECTED = "rejected";

    static SqlAnswer of(AnswerEvent a) {
        return new SqlAnswer(a.requestId, a.dialogueId, a.status, a.questionType, a.sql, a.response, a.errorKind, a.error,
                EventJson.toJson(a.trace), EventJson.toJson(a), null);
    }

    /** @param dialogueId the record's key, as the dead letter names it (the question may not have been readable) */
    static SqlAnswer rejected(String dialogueId, QuestionParse parse, DeadLetterEvent letter) {
        return new SqlAnswer(null, dialogueId, REJECTED, null, null, null, parse.rejectKind().wireName(), parse.reason(),
                "[]", null, EventJson.toJson(letter));
    }
}

package io.flowsql.flink;

import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.java.functions.KeySelector;

/** The keys the topology partitions by: a question's dialogue (a question without one is a dialogue of its own), a feedback turn's dialogue, a request. */
public final class DialogueKeys {
    private DialogueKeys() {}

    public static String of(RequestContext ctx) {
        return ctx.dialogueId != null ? ctx.dialogueId : ctx.requestId;
    }

    /** Questions by dialogue. */
    public static final class OfQuestion implements KeySelector<RequestContext, String> {
        @Override
        public String getKey(RequestContext ctx) {
            return of(ctx);
        }
    }

    /** Feedback turns by dialogue. */
    public static final class OfFeedback implements KeySelector<FeedbackTurn, String> {
        @Override
        public String getKey(FeedbackTurn feedback) {
            return feedback.dialogueId;
        }
    }

    /** Answers read back, by their dialogue (a question without one is a dialogue of its own). */
    public static final class OfAnswer implements KeySelector<io.flowsql.events.AnswerEvent, String> {
        @Override
        public String getKey(io.flowsql.events.AnswerEvent answer) {
            return answer.dialogueId != null ? answer.dialogueId : answer.requestId;
        }
    }

    /** Candidate work by request and fan-out ({@link CandidateWork#gatherKey()}). */
    public static final class OfRequest implements KeySelector<CandidateWork, String> {
        @Override
        public String getKey(CandidateWork work) {
            return work.gatherKey();
        }
    }
}

package io.flowsql.events;

/** The outcome of reading one feedback record: the feedback, or the reason it was refused (never both). */
public record FeedbackParse(FeedbackEvent feedback, RejectKind rejectKind, String detail) {

    public static FeedbackParse ok(FeedbackEvent feedback) {
        return new FeedbackParse(feedback, null, null);
    }

    public static FeedbackParse rejected(RejectKind kind, String detail) {
        return new FeedbackParse(null, kind, detail);
    }

    public boolean isValid() {
        return feedback != null;
    }

    /** "kind: detail", as written to a dead letter. */
    public String reason() {
        return isValid() ? null : rejectKind.wireName() + ": " + detail;
    }
}

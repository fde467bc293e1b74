package io.flowsql.events;

/** The outcome of reading one question record: the question, or the reason it was refused (never both). */
public record QuestionParse(QuestionEvent question, RejectKind rejectKind, String detail) {

    public static QuestionParse ok(QuestionEvent question) {
        return new QuestionParse(question, null, null);
    }

    public static QuestionParse rejected(RejectKind kind, String detail) {
        return new QuestionParse(null, kind, detail);
    }

    public boolean isValid() {
        return question != null;
    }

    /** "kind: detail", as written to a dead letter. */
    public String reason() {
        return isValid() ? null : rejectKind.wireName() + ": " + detail;
    }
}

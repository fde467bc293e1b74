package io.flowsql.pipeline;

/** MMSQL's four kinds of user turn. */
public enum QuestionType {
    ANSWERABLE, AMBIGUOUS, UNANSWERABLE, IMPROPER;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

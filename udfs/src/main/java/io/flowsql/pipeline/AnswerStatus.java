package io.flowsql.pipeline;

/** How a question was settled: with SQL, with a clarification (ambiguous), with a reply and no SQL, or not at all. */
public enum AnswerStatus {
    ANSWERED, CLARIFICATION, REFUSED, FAILED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

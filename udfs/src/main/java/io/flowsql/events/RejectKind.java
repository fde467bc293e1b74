package io.flowsql.events;

/** Why a question record was refused; the prefix of every dead letter's reason. */
public enum RejectKind {
    /** Larger than the job accepts for one question record ({@code questions.max-record-bytes}). */
    TOO_LARGE,
    /** The bytes are empty, not UTF-8, start with a byte-order mark, or are not exactly one JSON document. */
    NOT_JSON,
    /** JSON, but the questions schema rejects it (missing field, wrong type, unknown property...). */
    SCHEMA,
    /** {@code options.disabled_stages} names a stage that does not exist (the reason lists the valid ones). */
    UNKNOWN_STAGE,
    /** The record key is missing or is not the question's {@code dialogue_id}. */
    KEY_MISMATCH,
    /** Well-formed, but names a database the job does not have. */
    UNKNOWN_DATABASE,
    /** Reading the record failed in a way the checks above did not foresee; the record is kept, never retried. */
    INTERNAL,
    /** Its request id was already answered (or the first question with that id is still in flight and then answered). */
    DUPLICATE_REQUEST_ID,
    /** Its dialogue already had {@code dialogue.max-waiting} turns waiting behind the one being answered. */
    DIALOGUE_QUEUE_FULL;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

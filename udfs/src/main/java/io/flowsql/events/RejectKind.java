package io.flowsql.events;

/** Why a question record was refused; the prefix of every dead letter's reason. */
public enum RejectKind {
    /** The bytes are empty or not a JSON document. */
    NOT_JSON,
    /** JSON, but the questions schema rejects it (missing field, wrong type, unknown property...). */
    SCHEMA,
    /** Well-formed, but names a database the job does not have. */
    UNKNOWN_DATABASE,
    /** Its request id was already answered (or the first question with that id is still in flight and then answered). */
    DUPLICATE_REQUEST_ID;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

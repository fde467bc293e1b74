package io.flowsql.config.journal;

/** When a request's stage-journal entries are dropped (journal.release). */
public enum JournalRelease {
    /** Tombstones once the request's answer is committed. */
    ON_COMMIT,
    /** Kept until journal.retention, so a later run can re-use them (question option journal_of). */
    RETAIN
}

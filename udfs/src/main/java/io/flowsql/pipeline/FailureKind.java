package io.flowsql.pipeline;

import java.util.Locale;

/** Why a request failed, as a type (the answer's {@code error_kind}); the message says the rest. */
public enum FailureKind {
    /** A model call failed for good (its {@link io.flowsql.llm.LlmErrorKind} is in the stage's trace entry). */
    MODEL,
    /** The stage did not finish within its timeout (its model calls were cancelled). */
    TIMEOUT,
    /** The stages ran but produced no SQL that works. */
    NO_SQL,
    /**
     * Candidates ran in the database and every one failed there (e.g. "no such table" after a table was dropped);
     * the message is the last candidate's error. No SQL that ran is offered as an answer.
     */
    SQL_ERROR,
    /** The request names a preset this job has no chain of operators for. */
    UNSERVED,
    /** The question's tenant may not ask this database (or its SQL names a table outside the tenant's policy); status refused. */
    FORBIDDEN,
    /**
     * The question's declared database refused the login or cannot be reached ({@link io.flowsql.sql.DatabaseUnavailable}):
     * failed at once, without waiting for a connection at every step.
     */
    DATABASE_UNAVAILABLE,
    /** Anything else: an unexpected exception, or the engine refusing work while it closes. */
    INTERNAL;

    /** The name on the wire: lower case, e.g. {@code no_sql}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

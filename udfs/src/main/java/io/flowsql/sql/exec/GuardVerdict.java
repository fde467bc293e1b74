package io.flowsql.sql.exec;

/**
 * The guard's decision on one piece of SQL, so the executor knows whether to run it, refuse it, or
 * let SQLite's own preparation decide (when JSqlParser does not know the syntax).
 *
 * @param statement the single statement to run (trailing semicolons and comments removed)
 * @param refusal why it was refused, or null
 * @param needsSqliteCheck true when JSqlParser could not parse it: SQLite must confirm it is one read-only query
 */
public record GuardVerdict(String statement, String refusal, boolean needsSqliteCheck) {

    public static GuardVerdict refused(String reason) {
        return new GuardVerdict(null, reason, false);
    }

    public static GuardVerdict parsed(String statement) {
        return new GuardVerdict(statement, null, false);
    }

    public static GuardVerdict unparsed(String statement) {
        return new GuardVerdict(statement, null, true);
    }

    public boolean accepted() {
        return refusal == null;
    }
}

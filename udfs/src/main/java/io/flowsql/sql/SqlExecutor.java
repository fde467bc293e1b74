package io.flowsql.sql;

/**
 * Runs untrusted SQL against a benchmark database: read-only, exactly one SELECT/WITH statement,
 * a time limit that really interrupts the query, capped rows and bytes. Never throws for bad SQL:
 * the result carries a typed {@link SqlError}.
 */
public interface SqlExecutor extends AutoCloseable {

    ExecutionResult execute(String dbId, String sql);

    /** A fresh budget for one statement under this executor's time limit (10 s unless the executor says otherwise). */
    default StatementBudget newBudget() {
        return StatementBudget.startingNow(10_000);
    }

    /**
     * Runs the statement within a budget the caller keeps for the steps after it (comparing the result): every step
     * here (guard parse, execution, reading the result) stops when the budget runs out.
     */
    default ExecutionResult execute(String dbId, String sql, StatementBudget budget) {
        return execute(dbId, sql);
    }

    @Override
    default void close() {}
}

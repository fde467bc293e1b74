package io.flowsql.sql;

/**
 * Runs untrusted SQL against a benchmark database: read-only, exactly one SELECT/WITH statement,
 * a time limit that really interrupts the query, capped rows and bytes. Never throws for bad SQL:
 * the result carries a typed {@link SqlError}.
 */
public interface SqlExecutor extends AutoCloseable {

    ExecutionResult execute(String dbId, String sql);

    @Override
    default void close() {}
}

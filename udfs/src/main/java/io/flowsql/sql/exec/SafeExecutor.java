package io.flowsql.sql.exec;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;

/**
 * Runs untrusted SQL (one read-only SELECT) against a database by id, within one {@link StatementBudget}; never throws
 * for bad SQL (the result carries a typed {@code SqlError}). {@link SqliteSafeExecutor} runs SQLite files;
 * {@code JdbcSafeExecutor} a PostgreSQL or DuckDB database; {@code RoutingSafeExecutor} picks one by database id.
 */
public interface SafeExecutor extends AutoCloseable {

    SqlExecutorConfig config();

    /** A fresh budget for one statement under this executor's time limit. */
    default StatementBudget newBudget() {
        return StatementBudget.startingNow(config().timeoutMillis());
    }

    default ExecutionResult execute(String dbId, String sql) {
        return execute(dbId, sql, newBudget());
    }

    /** Runs the statement within a budget the caller keeps for the steps after it (comparing the result). */
    ExecutionResult execute(String dbId, String sql, StatementBudget budget);

    /**
     * As {@link #execute(String, String, StatementBudget)}, run as the database role {@code role} (null: the
     * connection's own): only an engine with roles can (PostgreSQL, {@link JdbcSafeExecutor}); any other refuses the
     * statement rather than run it with more rights than asked.
     */
    default ExecutionResult execute(String dbId, String sql, StatementBudget budget, String role) {
        if (role == null) {
            return execute(dbId, sql, budget);
        }
        return ExecutionResult.failed(new io.flowsql.sql.SqlError(io.flowsql.sql.SqlError.Kind.REFUSED,
                "database roles are set on PostgreSQL only"), 0);
    }

    /** The engine behind this database id (SQLite for an unknown id: the embedded default). */
    default DatabaseEngine engineOf(String dbId) {
        return DatabaseEngine.embedded();
    }

    @Override
    void close();
}

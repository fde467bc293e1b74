package io.flowsql.sql.exec;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.registry.DatabaseRegistry;

/** Declared databases through {@link JdbcSafeExecutor}, every other id through {@link SqliteSafeExecutor}. */
public final class RoutingSafeExecutor implements SafeExecutor {

    private final DatabaseRegistry registry;
    private final SqliteSafeExecutor sqlite;
    private final JdbcSafeExecutor jdbc;

    public RoutingSafeExecutor(DatabaseRegistry registry, SqliteSafeExecutor sqlite, JdbcSafeExecutor jdbc) {
        this.registry = registry;
        this.sqlite = sqlite;
        this.jdbc = jdbc;
    }

    @Override
    public SqlExecutorConfig config() {
        return sqlite.config();
    }

    @Override
    public DatabaseEngine engineOf(String dbId) {
        return registry.engineOf(dbId);
    }

    @Override
    public ExecutionResult execute(String dbId, String sql, StatementBudget budget) {
        return registry.declaration(dbId).isPresent() ? jdbc.execute(dbId, sql, budget) : sqlite.execute(dbId, sql, budget);
    }

    @Override
    public ExecutionResult execute(String dbId, String sql, StatementBudget budget, String role) {
        return registry.declaration(dbId).isPresent() ? jdbc.execute(dbId, sql, budget, role)
                : sqlite.execute(dbId, sql, budget, role);
    }

    @Override
    public void close() {
        try {
            sqlite.close();
        } finally {
            jdbc.close();
        }
    }
}

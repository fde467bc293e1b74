package io.flowsql.sql.exec;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseUnavailable;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.registry.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs untrusted SQL on a declared PostgreSQL or DuckDB database with SQLite's guarantees on an engine that can write:
 * the engine's {@link EngineStatementGuard}; a connection from the database's bounded pool (the wait not charged to
 * the budget); one read-only transaction per statement with {@code statement_timeout}, {@code lock_timeout} and
 * {@code idle_in_transaction_session_timeout} set to what is left of the budget (PostgreSQL); a watchdog that cancels
 * the statement ({@link Statement#cancel}) at the budget's deadline or as soon as the caller cancels the budget; the
 * row and result-byte caps of {@link ResultCollector}; and afterwards a rollback and a session reset ({@code DISCARD
 * ALL} on PostgreSQL) so nothing a statement did to its session reaches the next one. Never throws for bad SQL.
 */
public final class JdbcSafeExecutor implements SafeExecutor {

    private static final int CONNECTION_WAIT_IN_TIMEOUTS = 3;

    private final DatabaseRegistry registry;
    private final SqlExecutorConfig config;
    private final EngineStatementGuard guard;
    private final JdbcPools pools;
    private final ScheduledExecutorService watchdog;

    public JdbcSafeExecutor(DatabaseRegistry registry, SqlExecutorConfig config, EngineStatementGuard guard, JdbcPools pools) {
        this.registry = registry;
        this.config = config;
        this.guard = guard;
        this.pools = pools;
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "flowsql-jdbc-watchdog");
            t.setDaemon(true);
            return t;
        });
    }

    public JdbcSafeExecutor(DatabaseRegistry registry, SqlExecutorConfig config, JdbcPools pools) {
        this(registry, config, new EngineStatementGuard(), pools);
    }

    @Override
    public SqlExecutorConfig config() {
        return config;
    }

    @Override
    public DatabaseEngine engineOf(String dbId) {
        return registry.engineOf(dbId);
    }

    /** The executor limits on this database (its declared timeout, rows and bytes where set). */
    SqlExecutorConfig limitsOf(DatabaseDeclaration d) {
        SqlExecutorConfig c = config;
        if (d.timeoutMillis() > 0) {
            c = c.withTimeoutMillis(d.timeoutMillis());
        }
        if (d.maxRows() > 0) {
            c = c.withMaxRows(d.maxRows());
        }
        if (d.maxBytes() > 0) {
            c = c.withMaxBytes(d.maxBytes());
        }
        return c;
    }

    @Override
    public StatementBudget newBudget() {
        return StatementBudget.startingNow(config.timeoutMillis());
    }

    @Override
    public ExecutionResult execute(String dbId, String sql, StatementBudget budget) {
        return execute(dbId, sql, budget, null);
    }

    /**
     * On PostgreSQL, {@code role} (when not null) is set with {@code SET LOCAL ROLE} inside the statement's read-only
     * transaction, so the database's own grants and row-level security for that role apply to the statement; the
     * transaction's end resets it (and {@code DISCARD ALL} on release), so the pooled connection goes back as its
     * login role. The guard refuses model-written {@code SET}/{@code RESET} and {@code set_config}, so the SQL cannot
     * switch back. A role on another engine is refused.
     */
    @Override
    public ExecutionResult execute(String dbId, String sql, StatementBudget budget, String role) {
        long start = System.nanoTime();
        Optional<DatabaseDeclaration> declared = registry.declaration(dbId);
        if (declared.isEmpty()) {
            return ExecutionResult.failed(new SqlError(SqlError.Kind.UNKNOWN_DATABASE, "no database named " + dbId), micros(start));
        }
        DatabaseDeclaration d = declared.get();
        if (role != null && !d.engine().profile().setsRoles()) {
            return ExecutionResult.failed(new SqlError(SqlError.Kind.REFUSED, "database roles are not set on "
                    + d.engine().displayName()), micros(start));
        }
        GuardVerdict verdict = guard.check(d.engine(), sql, budget);
        if (budget.cancelled()) {
            return ExecutionResult.failed(cancelled(), micros(start));
        }
        if (!verdict.accepted()) {
            return ExecutionResult.failed(new SqlError(SqlError.Kind.REFUSED, verdict.refusal()), micros(start));
        }
        SqlExecutorConfig limits = limitsOf(d);
        // a pooled connection the server dropped (restart, failover, pg_terminate_backend) is not the SQL's fault: the
        // read-only statement runs once more on a fresh connection, and a second loss means the database is unavailable
        for (int attempt = 1; ; attempt++) {
            Borrowed borrowed = borrow(d, limits, budget, start);
            if (borrowed.failure() != null) {
                return borrowed.failure();
            }
            boolean healthy = true;
            try {
                return run(d, limits, borrowed.connection(), verdict.statement(), role, budget, start);
            } catch (LostConnection e) {
                healthy = false;
                if (attempt == 2 || budget.expired()) {
                    return ExecutionResult.failed(new SqlError(SqlError.Kind.DATABASE_UNAVAILABLE, "database " + dbId
                            + " is unavailable: the connection was lost (SQLSTATE " + e.state + ")"), micros(start));
                }
            } catch (RuntimeException e) {
                healthy = false;
                return ExecutionResult.failed(new SqlError(SqlError.Kind.RUNTIME, Secrets.scrub(String.valueOf(e.getMessage()))),
                        micros(start));
            } finally {
                release(d, borrowed.connection(), healthy);
            }
        }
    }

    /** A connection from the pool, or the failure to answer with (the wait is not charged to the budget). */
    private record Borrowed(Connection connection, ExecutionResult failure) {}

    private Borrowed borrow(DatabaseDeclaration d, SqlExecutorConfig limits, StatementBudget budget, long start) {
        long waitStart = System.nanoTime();
        try {
            return new Borrowed(pools.connection(d), null);
        } catch (DatabaseUnavailable e) {
            return new Borrowed(null, ExecutionResult.failed(new SqlError(SqlError.Kind.DATABASE_UNAVAILABLE, e.getMessage()),
                    micros(start)));
        } catch (SQLTransientConnectionException e) {
            return new Borrowed(null, ExecutionResult.failed(new SqlError(SqlError.Kind.TIMEOUT, "no free connection to "
                    + d.id() + " within " + CONNECTION_WAIT_IN_TIMEOUTS * limits.timeoutMillis() + " ms"), micros(start)));
        } catch (SQLException | RuntimeException e) {
            return new Borrowed(null, ExecutionResult.failed(new SqlError(SqlError.Kind.RUNTIME, "cannot open " + d.id() + ": "
                    + Secrets.scrub(e.getMessage())), micros(start)));
        } finally {
            budget.notCounting(System.nanoTime() - waitStart);
        }
    }

    /** The statement's connection died under it; carries the SQLSTATE only (the driver's message may name the host). */
    private static final class LostConnection extends RuntimeException {
        final String state;

        LostConnection(String state) {
            super(null, null, false, false);
            this.state = state;
        }
    }

    /**
     * A connection the server closed or cannot serve on: SQLSTATE class 08 (connection exception: the driver's I/O
     * error is 08006) or 57P01–57P03 (administrator command, crash shutdown, cannot connect now).
     */
    static boolean connectionLost(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03");
    }

    private ExecutionResult run(DatabaseDeclaration d, SqlExecutorConfig limits, Connection connection, String sql,
            String role, StatementBudget budget, long start) {
        if (budget.expired()) {
            return ExecutionResult.failed(budget.cancelled() ? cancelled() : timeout(budget), micros(start));
        }
        boolean prepared = false;
        try {
            connection.setAutoCommit(false);
            if (!d.engine().profile().beginStatement(connection, budget.remainingMillis(), role)) {
                return ExecutionResult.failed(new SqlError(SqlError.Kind.RUNTIME,
                        "the database role configured for this question could not be set"), micros(start));
            }
            ResultCollector collector = new ResultCollector(limits.maxRows(), limits.maxBytes());
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                prepared = true;
                statement.setMaxRows(limits.maxRows() + 1);
                statement.setFetchSize(Math.min(limits.maxRows() + 1, 1000));
                Runnable cancel = () -> cancelQuietly(statement);
                if (!budget.whileBlocked(cancel)) {
                    return ExecutionResult.failed(cancelled(), micros(start));
                }
                long delay = Math.max(1, (budget.deadlineNanos() - System.nanoTime()) / 1_000_000L
                        - d.engine().profile().interruptLeadMillis(budget.timeoutMillis()));
                ScheduledFuture<?> atDeadline = watchdog.schedule(cancel, delay, TimeUnit.MILLISECONDS);
                try (ResultSet resultSet = statement.executeQuery()) {
                    ResultCollector.Collected collected = collector.collect(resultSet, budget);
                    if (collected.outOfTime()) {
                        return ExecutionResult.failed(budget.cancelled() ? cancelled() : timeout(budget), micros(start));
                    }
                    return new ExecutionResult(collected.columns(), collected.rows(), collected.rows().size(),
                            collected.truncated(), micros(start), null);
                } finally {
                    atDeadline.cancel(false);
                    budget.whileBlocked(null);
                }
            }
        } catch (SQLException e) {
            if (connectionLost(e) && !budget.cancelled()) {
                throw new LostConnection(e.getSQLState());
            }
            return ExecutionResult.failed(classify(e, prepared, budget), micros(start));
        }
    }

    private static void cancelQuietly(Statement statement) {
        try {
            statement.cancel();
        } catch (SQLException | RuntimeException e) {
            // the statement already ended
        }
    }

    /** Rolls the transaction back and resets the session; a connection that cannot be reset is evicted from the pool. */
    private void release(DatabaseDeclaration d, Connection connection, boolean healthy) {
        try {
            d.engine().profile().resetSession(connection);
            if (!healthy) {
                pools.evict(d, connection);
            }
        } catch (SQLException | RuntimeException e) {
            pools.evict(d, connection);
        } finally {
            try {
                connection.close();
            } catch (SQLException e) {
                // returned or gone either way
            }
        }
    }

    private SqlError classify(SQLException e, boolean prepared, StatementBudget budget) {
        String message = Secrets.scrub(String.valueOf(e.getMessage()));
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String lower = message.toLowerCase(Locale.ROOT);
        if (budget.cancelled() || Thread.currentThread().isInterrupted()) {
            return cancelled();
        }
        if (budget.expired() || e instanceof SQLTimeoutException || state.equals("57014") || state.equals("55P03")
                || lower.contains("interrupt") || lower.contains("canceling statement")) {
            return timeout(budget);
        }
        if (state.equals("25006") || state.equals("42501") || lower.contains("read-only") || lower.contains("read only")
                || lower.contains("permission denied") || lower.contains("disabled by configuration")
                || lower.contains("enable_external_access") || lower.contains("lock_configuration")) {
            return new SqlError(SqlError.Kind.REFUSED, "the database is read-only and bounded: " + message);
        }
        if (state.startsWith("42") || lower.startsWith("parser error") || lower.startsWith("binder error")
                || lower.startsWith("catalog error") || lower.contains("syntax error")) {
            return new SqlError(SqlError.Kind.INVALID_SQL, message, e.getSQLState());
        }
        return new SqlError(prepared ? SqlError.Kind.RUNTIME : SqlError.Kind.INVALID_SQL, message, e.getSQLState());
    }

    private static SqlError timeout(StatementBudget budget) {
        return new SqlError(SqlError.Kind.TIMEOUT, "stopped after the time limit of " + budget.timeoutMillis() + " ms");
    }

    private static SqlError cancelled() {
        return new SqlError(SqlError.Kind.TIMEOUT, "cancelled: the caller's time limit ran out before the statement finished");
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000;
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        pools.close();
    }
}

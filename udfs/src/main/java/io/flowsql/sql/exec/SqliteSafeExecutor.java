package io.flowsql.sql.exec;

import io.flowsql.sql.engine.sqlite.QueryDeadline;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.catalog.DatabaseLocator;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Runs SQL written by a model against a benchmark database without letting it write, escape or run
 * forever: the guard admits one SELECT, the connection is read-only and query-only, a progress-handler
 * deadline interrupts it (at its time limit, or at once when the caller cancels its budget or interrupts its
 * thread), and caps bound what it returns. One {@link StatementBudget} per statement bounds the guard's
 * parse, the execution and reading the result (encoded bytes, time) together; waiting for a free connection is not charged.
 * Never throws for bad SQL: the result carries a typed {@link SqlError}.
 */
public final class SqliteSafeExecutor implements SafeExecutor {

    /** A caller waits at most this many time limits for a free connection (others' queries end by then); not charged to its budget. */
    private static final int CONNECTION_WAIT_IN_TIMEOUTS = 3;

    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_AUTH = 23;

    private final DatabaseLocator locator;
    private final SqlExecutorConfig config;
    private final SqlStatementGuard guard;
    private final ResultCollector collector;
    private final ConcurrentMap<String, DatabaseConnectionPool> pools = new ConcurrentHashMap<>();

    public SqliteSafeExecutor(DatabaseLocator locator, SqlExecutorConfig config, SqlStatementGuard guard) {
        this.locator = locator;
        this.config = config;
        this.guard = guard;
        this.collector = new ResultCollector(config.maxRows(), config.maxBytes());
    }

    public SqliteSafeExecutor(DatabaseLocator locator, SqlExecutorConfig config) {
        this(locator, config, new SqlStatementGuard());
    }

    @Override
    public SqlExecutorConfig config() {
        return config;
    }

    /** A fresh budget for one statement under this executor's time limit. */
    public StatementBudget newBudget() {
        return StatementBudget.startingNow(config.timeoutMillis());
    }

    public ExecutionResult execute(String dbId, String sql) {
        return execute(dbId, sql, newBudget());
    }

    /**
     * Runs the statement within a budget the caller keeps for the steps after it (comparing the result): every step
     * here (guard parse, execution, reading the result) stops when the budget runs out.
     */
    @Override
    public ExecutionResult execute(String dbId, String sql, StatementBudget budget) {
        long start = System.nanoTime();
        StatementThreads.check();
        GuardVerdict verdict = guard.check(sql, budget);
        if (budget.cancelled()) {
            return ExecutionResult.failed(cancelled(), micros(start));
        }
        if (!verdict.accepted()) {
            return ExecutionResult.failed(new SqlError(SqlError.Kind.REFUSED, verdict.refusal()), micros(start));
        }
        DatabaseConnectionPool pool = poolFor(dbId);
        if (pool == null) {
            return ExecutionResult.failed(new SqlError(SqlError.Kind.UNKNOWN_DATABASE, "no database named " + dbId), micros(start));
        }
        PooledConnection connection;
        try {
            connection = acquire(pool, budget);
        } catch (InterruptedException e) {
            return ExecutionResult.failed(budget.cancelled() ? cancelled()
                    : new SqlError(SqlError.Kind.RUNTIME, "interrupted while waiting for a connection"), micros(start));
        } catch (SQLException e) {
            return ExecutionResult.failed(new SqlError(SqlError.Kind.RUNTIME, "cannot open " + dbId + ": " + e.getMessage()), micros(start));
        }
        if (connection == null) {
            return ExecutionResult.failed(budget.cancelled() ? cancelled() : new SqlError(SqlError.Kind.TIMEOUT,
                    "no free connection to " + dbId + " within " + CONNECTION_WAIT_IN_TIMEOUTS * config.timeoutMillis() + " ms"),
                    micros(start));
        }
        boolean healthy = true;
        try {
            return run(connection, verdict, budget, start);
        } catch (RuntimeException e) {
            healthy = false;
            return ExecutionResult.failed(new SqlError(SqlError.Kind.RUNTIME, String.valueOf(e.getMessage())), micros(start));
        } finally {
            connection.deadline().stop();
            pool.release(connection, healthy);
        }
    }

    /**
     * A free connection, or null when none freed up in time or the budget was cancelled first. A cancel during the
     * wait interrupts it (the thread's interrupt is consumed here, never left behind for its next task); an
     * interrupt from anyone else is kept and thrown. The wait is not charged to the budget.
     */
    private PooledConnection acquire(DatabaseConnectionPool pool, StatementBudget budget)
            throws SQLException, InterruptedException {
        Thread waiting = Thread.currentThread();
        if (!budget.whileBlocked(waiting::interrupt)) {
            return null;
        }
        long waitStart = System.nanoTime();
        PooledConnection connection = null;
        try {
            connection = pool.acquire(CONNECTION_WAIT_IN_TIMEOUTS * config.timeoutMillis());
        } catch (InterruptedException e) {
            if (!budget.cancelled()) {
                waiting.interrupt();
            }
            throw e;
        } finally {
            budget.whileBlocked(null);
            budget.notCounting(System.nanoTime() - waitStart);
        }
        if (budget.cancelled()) {
            Thread.interrupted(); // the cancel came after the wait had ended: its interrupt is ours to clear
            if (connection != null) {
                pool.release(connection, true);
            }
            return null;
        }
        return connection;
    }

    private ExecutionResult run(PooledConnection connection, GuardVerdict verdict, StatementBudget budget, long start) {
        QueryDeadline deadline = connection.deadline();
        deadline.startFor(budget);
        boolean prepared = false;
        try {
            if (verdict.needsSqliteCheck()) {
                String writes = ReadOnlyPlanCheck.writeReason(connection.connection(), verdict.statement());
                if (writes != null) {
                    return ExecutionResult.failed(new SqlError(SqlError.Kind.REFUSED, writes), micros(start));
                }
            }
            try (PreparedStatement statement = connection.connection().prepareStatement(verdict.statement())) {
                prepared = true;
                statement.setFetchSize(Math.min(config.maxRows() + 1, 1000));
                try (ResultSet resultSet = statement.executeQuery()) {
                    ResultCollector.Collected collected = collector.collect(resultSet, budget);
                    if (collected.outOfTime()) {
                        return ExecutionResult.failed(budget.cancelled() ? cancelled() : timeout(budget), micros(start));
                    }
                    return new ExecutionResult(collected.columns(), collected.rows(), collected.rows().size(),
                            collected.truncated(), micros(start), null);
                }
            }
        } catch (SQLException e) {
            return ExecutionResult.failed(classify(e, prepared, deadline, budget), micros(start));
        }
    }

    private static SqlError timeout(StatementBudget budget) {
        return new SqlError(SqlError.Kind.TIMEOUT, "stopped after the time limit of " + budget.timeoutMillis() + " ms");
    }

    /** The statement's caller gave up on it (its own timeout cancelled the budget, or interrupted the thread). */
    private static SqlError cancelled() {
        return new SqlError(SqlError.Kind.TIMEOUT, "cancelled: the caller's time limit ran out before the statement finished");
    }

    private SqlError classify(SQLException e, boolean prepared, QueryDeadline deadline, StatementBudget budget) {
        String message = String.valueOf(e.getMessage());
        if (budget.cancelled() || Thread.currentThread().isInterrupted()) {
            return cancelled();
        }
        if (deadline.passed()) {
            return timeout(budget);
        }
        if (message.contains("string or blob too big") || message.contains("SQLITE_TOOBIG")) {
            return new SqlError(SqlError.Kind.RUNTIME, "a value larger than the result budget of " + config.maxBytes()
                    + " bytes: " + message);
        }
        int code = e.getErrorCode() & 0xff;
        if (code == SQLITE_READONLY || code == SQLITE_AUTH || message.contains("readonly") || message.contains("query_only")) {
            return new SqlError(SqlError.Kind.REFUSED, "the database is read-only: " + message);
        }
        return new SqlError(prepared ? SqlError.Kind.RUNTIME : SqlError.Kind.INVALID_SQL, message);
    }

    private DatabaseConnectionPool poolFor(String dbId) {
        DatabaseConnectionPool pool = pools.get(dbId);
        if (pool != null) {
            return pool;
        }
        Optional<Path> file = locator.sqliteFile(dbId);
        if (file.isEmpty()) {
            return null;
        }
        return pools.computeIfAbsent(dbId,
                id -> new DatabaseConnectionPool(file.get(), config.poolSizePerDatabase(), config.maxBytes()));
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000;
    }

    @Override
    public void close() {
        pools.values().forEach(DatabaseConnectionPool::close);
        pools.clear();
    }
}

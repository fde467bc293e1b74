package io.flowsql.pipeline;

import io.flowsql.sql.DatabaseUnavailable;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.exec.SafeExecutor;

/**
 * Model SQL that a stage runs itself (a reviewer's or refiner's check): the statement's budget is registered with the
 * stage's {@link Cancellation}, so the stage's timeout stops the running SQLite statement and frees its connection at
 * once, instead of leaving it to run to the executor's own time limit.
 */
public final class StageSql {
    private StageSql() {}

    /**
     * Runs {@code blocking} (SQL, value probes, anything that may wait) on the pool the stage was started on
     * ({@link StageTrace#work}), so a step chained on a model reply never holds the thread that completed the reply
     * (the engine's LLM callback pool or the journal's acknowledgement thread); where the stage runs without a pool
     * (the plain pipeline) it runs here. A pool that refuses it (closing) fails the future.
     */
    public static <T> CompletableFuture<T> offload(StageTrace trace, Supplier<CompletableFuture<T>> blocking) {
        Executor pool = trace == null ? null : trace.work;
        if (pool == null) {
            try {
                return blocking.get();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        try {
            return CompletableFuture.supplyAsync(blocking, pool).thenCompose(f -> f);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Runs {@code sql} on {@code dbId} under a fresh budget that the stage's cancellation (if any) cancels. */
    public static ExecutionResult execute(SafeExecutor executor, String dbId, String sql, StageTrace trace) {
        return execute(executor, dbId, sql, trace == null ? null : trace.cancellation);
    }

    /**
     * Runs {@code sql} on {@code dbId} under a fresh budget that {@code cancellation} (when not null) cancels.
     * @throws DatabaseUnavailable when the database refused the login or cannot be reached: the question fails at once
     *     ({@code database_unavailable}) rather than carrying on with SQL that cannot run anywhere
     */
    public static ExecutionResult execute(SafeExecutor executor, String dbId, String sql,
                                          Cancellation cancellation) {
        return failFast(executor.execute(dbId, sql, budgetFor(executor, cancellation)));
    }

    /** The result, unless it says the database is unavailable: then {@link DatabaseUnavailable} with its message. */
    public static ExecutionResult failFast(ExecutionResult result) {
        if (!result.ok() && result.error().kind() == SqlError.Kind.DATABASE_UNAVAILABLE) {
            throw new DatabaseUnavailable(result.error().message());
        }
        return result;
    }

    /** A fresh budget under the executor's limit that {@code cancellation} (when not null) cancels. */
    public static StatementBudget budgetFor(SafeExecutor executor, Cancellation cancellation) {
        StatementBudget budget = executor.newBudget();
        if (cancellation != null) {
            cancellation.onCancel(budget::cancel);
        }
        return budget;
    }
}

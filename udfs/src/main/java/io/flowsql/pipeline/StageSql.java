package io.flowsql.pipeline;

import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseUnavailable;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.exec.SafeExecutor;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * The one way a stage runs model-written SQL (a candidate, a reviewer's or refiner's check, a sub-SQL, a reading, an
 * alignment probe): the engine's executor behind the job's access policies. Every statement is run for a
 * {@link Scope} — the question's database, its tenant and the stage's {@link Cancellation} — so there is no way to run
 * one without naming whose question it serves:
 * <ul>
 *   <li>under a table-level policy ({@code tenants.<t>.tables.<db>}) the statement's tables are checked first
 *       ({@code TableGate}); a statement reading a table the tenant may not use does not run and fails as the database
 *       would fail a missing table ({@code invalid_sql: table X is not available}, naming only what the SQL named), so
 *       an agent corrects it as any other error and the question goes on; the statement is read in the database's
 *       own dialect, and functions, casts and catalog relations are held to the engine's allow-lists;</li>
 *   <li>under such a policy the database's error text keeps no value the statement did not itself contain
 *       ({@code ErrorRedaction}): an engine quotes values it read in some errors;</li>
 *   <li>with a role for the tenant on that database ({@code tenants.<t>.roles.<db>}) the statement runs as that role
 *       (PostgreSQL: {@code SET LOCAL ROLE}), so the database's grants and row-level security apply too;</li>
 *   <li>a database that refused the login or cannot be reached fails the question at once
 *       ({@link DatabaseUnavailable}: {@code database_unavailable});</li>
 *   <li>the statement's budget is registered with the stage's cancellation, so the stage's timeout stops the running
 *       statement and frees its connection at once, instead of leaving it to run to the executor's own time limit.</li>
 * </ul>
 * Stages hold a {@code StageSql}, never the executor itself; each statement goes through the {@link DataDoor} of its
 * scope's database and tenant, which does the checks above.
 */
public final class StageSql {
    private final DataDoors doors;

    public StageSql(DataDoors doors) {
        this.doors = Objects.requireNonNull(doors, "doors");
    }

    /** Without any access policy (tools, replays, tests): only the budget and the cancellation apply. */
    public static StageSql open(SafeExecutor executor) {
        return new StageSql(DataDoors.open(Objects.requireNonNull(executor, "executor"), null));
    }

    /** Whose question a statement serves: its database, its tenant (null: none) and the stage's cancellation (null: none). */
    public record Scope(String dbId, String tenant, Cancellation cancellation) {
        /** The request's database and tenant, stopped by the stage's cancellation. */
        public static Scope of(RequestContext ctx, StageTrace trace) {
            return of(ctx.dbId, ctx.tenant, trace);
        }

        /** A question's database and tenant, stopped by the stage's cancellation. */
        public static Scope of(String dbId, String tenant, StageTrace trace) {
            return new Scope(dbId, tenant, trace == null ? null : trace.cancellation);
        }

        public boolean cancelled() {
            return cancellation != null && cancellation.isCancelled();
        }
    }

    /** Runs {@code sql} for {@code scope} under a fresh budget that the scope's cancellation cancels. */
    public ExecutionResult execute(Scope scope, String sql) {
        return execute(scope, sql, budget(scope));
    }

    /**
     * Runs {@code sql} for {@code scope} within {@code budget}, which the caller keeps for the steps after it (comparing
     * the result); a statement the scope's tenant may not run fails without reaching the database.
     */
    public ExecutionResult execute(Scope scope, String sql, StatementBudget budget) {
        return failFast(door(scope).execute(sql, budget));
    }

    /** The door of the scope's database for its tenant. */
    public DataDoor door(Scope scope) {
        return doors.door(scope.dbId(), scope.tenant());
    }

    /**
     * The result, unless it says the database is unavailable (it refused the login or cannot be reached): then
     * {@link DatabaseUnavailable} with its message, so the question fails at once ({@code database_unavailable})
     * rather than carrying on with SQL that cannot run anywhere.
     */
    public static ExecutionResult failFast(ExecutionResult result) {
        if (!result.ok() && result.error().kind() == SqlError.Kind.DATABASE_UNAVAILABLE) {
            throw new DatabaseUnavailable(result.error().message());
        }
        return result;
    }

    /** A fresh budget under the executor's limit that the scope's cancellation (when set) cancels. */
    public StatementBudget budget(Scope scope) {
        StatementBudget budget = door(scope).newBudget();
        if (scope.cancellation() != null) {
            scope.cancellation().onCancel(budget::cancel);
        }
        return budget;
    }

    /** The engine behind a database id (for dialect rules). */
    public DatabaseEngine engineOf(String dbId) {
        return doors.operator(dbId).engine();
    }

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
}

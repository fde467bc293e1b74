package io.flowsql.pipeline;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.exec.SqliteSafeExecutor;

/**
 * Model SQL that a stage runs itself (a reviewer's or refiner's check): the statement's budget is registered with the
 * stage's {@link Cancellation}, so the stage's timeout stops the running SQLite statement and frees its connection at
 * once, instead of leaving it to run to the executor's own time limit.
 */
public final class StageSql {
    private StageSql() {}

    /** Runs {@code sql} on {@code dbId} under a fresh budget that the stage's cancellation (if any) cancels. */
    public static ExecutionResult execute(SqliteSafeExecutor executor, String dbId, String sql, StageTrace trace) {
        return execute(executor, dbId, sql, trace == null ? null : trace.cancellation);
    }

    /** Runs {@code sql} on {@code dbId} under a fresh budget that {@code cancellation} (when not null) cancels. */
    public static ExecutionResult execute(SqliteSafeExecutor executor, String dbId, String sql,
                                          Cancellation cancellation) {
        return executor.execute(dbId, sql, budgetFor(executor, cancellation));
    }

    /** A fresh budget under the executor's limit that {@code cancellation} (when not null) cancels. */
    public static StatementBudget budgetFor(SqliteSafeExecutor executor, Cancellation cancellation) {
        StatementBudget budget = executor.newBudget();
        if (cancellation != null) {
            cancellation.onCancel(budget::cancel);
        }
        return budget;
    }
}

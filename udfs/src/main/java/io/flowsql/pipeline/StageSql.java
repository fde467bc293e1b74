package io.flowsql.pipeline;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.exec.SafeExecutor;

/**
 * Model SQL that a stage runs itself (a reviewer's or refiner's check): the statement's budget is registered with the
 * stage's {@link Cancellation}, so the stage's timeout stops the running SQLite statement and frees its connection at
 * once, instead of leaving it to run to the executor's own time limit.
 */
public final class StageSql {
    private StageSql() {}

    /** Runs {@code sql} on {@code dbId} under a fresh budget that the stage's cancellation (if any) cancels. */
    public static ExecutionResult execute(SafeExecutor executor, String dbId, String sql, StageTrace trace) {
        StatementBudget budget = executor.newBudget();
        Cancellation cancellation = trace == null ? null : trace.cancellation;
        if (cancellation != null) {
            cancellation.onCancel(budget::cancel);
        }
        return executor.execute(dbId, sql, budget);
    }
}

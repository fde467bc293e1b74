package io.flowsql.feedback;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.StatementBudget;
import java.util.Optional;

/**
 * Checks the SQL of a piece of feedback before it is learned: it is untrusted, so it goes through the same safe
 * executor as a model's SQL (the statement guard: read-only, one statement; the executor's time, row and VM-step
 * budgets) on its own database, and is refused when the guard refuses it or it fails there. An empty result is
 * accepted (a verified query may rightly return nothing). Runs on a pool thread, never a Flink task thread.
 */
public final class FeedbackChecker {
    private final SafeExecutor executor;

    public FeedbackChecker(SafeExecutor executor) {
        this.executor = executor;
    }

    /** A budget for one check (the executor's limits); cancelling it stops the running statement. */
    public StatementBudget newBudget() {
        return executor.newBudget();
    }

    /** Why the SQL is refused, or empty when it ran. */
    public Optional<String> refusal(String dbId, String sql) {
        return refusal(dbId, sql, newBudget());
    }

    /** Why the SQL is refused, or empty when it ran, within {@code budget} (cancelled: the statement stops). */
    public Optional<String> refusal(String dbId, String sql, StatementBudget budget) {
        ExecutionResult result = executor.execute(dbId, sql, budget);
        if (result.ok()) {
            return Optional.empty();
        }
        return Optional.of("the SQL does not run on database '" + dbId + "': " + result.error());
    }
}

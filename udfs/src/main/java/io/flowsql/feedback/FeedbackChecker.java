package io.flowsql.feedback;

import io.flowsql.access.AccessPolicies;
import io.flowsql.pipeline.StageSql;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.access.DataDoors;
import java.time.Duration;
import java.util.Optional;

/**
 * Checks the SQL of a piece of feedback before it is learned: it is untrusted, so it goes through the same door as a
 * model's SQL ({@link StageSql}: the statement guard, read-only, one statement, the executor's budgets) for its
 * sender's tenant on its own database, and is refused when the tenant may not ask that database, when the access
 * gate or the guard refuses it, or when it fails there (the database's error text then carries no value the SQL did
 * not itself contain, under a table-level policy). An empty result is accepted (a verified query may rightly return
 * nothing). Runs on a pool thread, never a Flink task thread.
 */
public final class FeedbackChecker {
    private final StageSql sql;
    private final AccessPolicies access;

    /** @param room the data under the feedback's policies: each check goes through its sender's door */
    public FeedbackChecker(DataDoors room) {
        this.sql = new StageSql(room);
        this.access = room.access();
    }

    /** A budget for one check (the executor's limits); cancelling it stops the running statement. */
    public StatementBudget newBudget() {
        return sql.budget(new StageSql.Scope(null, null, null));
    }

    /** Why the SQL is refused, or empty when it ran. */
    public Optional<String> refusal(String dbId, String sql) {
        return refusal(dbId, null, sql, newBudget());
    }

    /** Why the SQL is refused, or empty when it ran, within {@code budget} (cancelled: the statement stops). */
    public Optional<String> refusal(String dbId, String sql, StatementBudget budget) {
        return refusal(dbId, null, sql, budget);
    }

    /** Why the SQL sent by {@code tenant} (null: none) is refused, or empty when it ran. */
    public Optional<String> refusal(String dbId, String tenant, String statement) {
        return refusal(dbId, tenant, statement, newBudget());
    }

    /** Why the SQL sent by {@code tenant} (null: none) is refused, or empty when it ran, within {@code budget}. */
    public Optional<String> refusal(String dbId, String tenant, String statement, StatementBudget budget) {
        if (!access.allowsDatabase(tenant, dbId)) {
            return Optional.of("tenant '" + tenant + "' may not use database '" + dbId + "'");
        }
        ExecutionResult result = sql.execute(new StageSql.Scope(dbId, tenant, null), statement, budget);
        if (result.ok()) {
            return Optional.empty();
        }
        return Optional.of("the SQL does not run on database '" + dbId + "': " + result.error());
    }

    /**
     * Why a record stamped at {@code timestampMillis} is refused at wall-clock time {@code nowMillis}: stamped more
     * than {@link LiveLibraryLimits#CLOCK_SKEW} ahead (its producer's clock or a forged timestamp), which would
     * otherwise age every learned entry out.
     */
    public static Optional<String> futureStamp(long timestampMillis, long nowMillis) {
        long ahead = timestampMillis - nowMillis;
        if (ahead <= LiveLibraryLimits.CLOCK_SKEW.toMillis()) {
            return Optional.empty();
        }
        return Optional.of("stamped " + Duration.ofMillis(ahead).toSeconds() + " s ahead of the clock (at most "
                + LiveLibraryLimits.CLOCK_SKEW.toSeconds() + " s allowed)");
    }
}

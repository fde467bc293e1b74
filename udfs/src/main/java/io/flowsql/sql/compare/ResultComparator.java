package io.flowsql.sql.compare;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import java.util.Objects;

/**
 * Decides whether a predicted result matches the gold one, by BIRD's or Spider test-suite's rules;
 * defined through {@link ResultFingerprint} so evaluation and the vote can never disagree.
 */
public final class ResultComparator {

    private final ComparisonMode mode;

    public ResultComparator(ComparisonMode mode) {
        this.mode = Objects.requireNonNull(mode);
    }

    public ComparisonMode mode() {
        return mode;
    }

    /** Order counts only in test-suite mode and only when the gold query sorts at top level. */
    public boolean equal(ExecutionResult gold, String goldSql, ExecutionResult predicted) {
        return equal(gold, predicted, orderMatters(goldSql));
    }

    public boolean equal(ExecutionResult gold, ExecutionResult predicted, boolean orderMatters) {
        String goldKey = ResultFingerprint.of(gold, mode, orderMatters);
        return goldKey != null && goldKey.equals(ResultFingerprint.of(predicted, mode, orderMatters));
    }

    /**
     * Compares within the predicted statement's budget: a comparison that would pass its work cap or its time is
     * undecided ({@value ComparisonBudgetExceeded#VERDICT}), never a hang.
     */
    public Match compare(ExecutionResult gold, String goldSql, ExecutionResult predicted, StatementBudget budget) {
        boolean ordered = orderMatters(goldSql);
        try {
            String goldKey = ResultFingerprint.of(gold, mode, ordered, budget);
            return Match.of(goldKey != null && goldKey.equals(ResultFingerprint.of(predicted, mode, ordered, budget)));
        } catch (ComparisonBudgetExceeded e) {
            return Match.undecided(e.getMessage());
        }
    }

    /**
     * As {@link #equal(ExecutionResult, String, ExecutionResult)} for results of two different engines (the gold on
     * SQLite, the prediction on PostgreSQL or DuckDB): values are already the same types ({@code ResultCollector}
     * reads every engine's numbers, booleans and timestamps as SQLite returns them), and a sorted result may hold its
     * NULL rows at the other end ({@link NullPlacement}).
     */
    public boolean equalAcrossEngines(ExecutionResult gold, String goldSql, ExecutionResult predicted) {
        boolean ordered = orderMatters(goldSql);
        if (equal(gold, predicted, ordered)) {
            return true;
        }
        return ordered && predicted != null && predicted.ok()
                && (equal(gold, NullPlacement.moved(predicted, true), true) || equal(gold, NullPlacement.moved(predicted, false), true));
    }

    /** Whether row order matters for this gold query under this mode. */
    public boolean orderMatters(String goldSql) {
        return mode == ComparisonMode.SPIDER_TEST_SUITE && TopLevelOrderBy.present(goldSql);
    }
}

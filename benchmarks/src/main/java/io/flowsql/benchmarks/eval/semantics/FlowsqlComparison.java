package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;

import java.util.Locale;

/**
 * The project's own semantics: no rewrite, the comparator the vote uses ({@link ResultComparator}: reals rounded to 10
 * significant digits, order counts only for a top-level ORDER BY), failing golds left out.
 */
public final class FlowsqlComparison implements Semantics {
    private final ResultComparator comparator;

    public FlowsqlComparison(ComparisonMode mode) {
        this.comparator = new ResultComparator(mode);
    }

    public static String idOf(ComparisonMode mode) {
        return "flowsql-" + mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String id() {
        return idOf(comparator.mode());
    }

    @Override
    public String description() {
        return "FlowSQL's own comparison " + comparator.mode() + " (the vote's comparator; no rewrites; reals to 10 digits)";
    }

    @Override
    public boolean goldErrorExcludes() {
        return true;
    }

    @Override
    public boolean matches(ExecutionResult gold, ExecutionResult predicted, String executedGold) {
        return gold.ok() && predicted.ok() && comparator.equal(gold, executedGold, predicted);
    }

    @Override
    public Match match(ExecutionResult gold, ExecutionResult predicted, String executedGold, StatementBudget budget) {
        if (!gold.ok() || !predicted.ok()) {
            return Match.DIFFERENT;
        }
        return comparator.compare(gold, executedGold, predicted, budget);
    }

    /** The comparator, for the readings of a clarification. */
    public ResultComparator comparator() {
        return comparator;
    }
}

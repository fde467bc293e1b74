package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.ComparisonBudgetExceeded;
import io.flowsql.sql.compare.Match;

/**
 * How one question is judged: what is done to the gold and predicted SQL before they run, when they run at all, how
 * their results are compared, and what a failing gold means. Every report names the semantics its figures used
 * ({@link #id()} and {@link #description()}); {@link SemanticsChoice} lists them.
 */
public interface Semantics {

    /** Short name given on the command line and printed in every report. */
    String id();

    /** One line saying whose rules these are, for the reports. */
    String description();

    /** The gold SQL as it is executed. */
    default String executedGold(String gold) {
        return gold;
    }

    /** The predicted SQL as it is executed. */
    default String executedPrediction(String prediction) {
        return prediction;
    }

    /** Whether this question's SQL is executed and compared (MMSQL: only turns answerable in gold and prediction). */
    default boolean executes(BenchmarkItem item, String predictedType) {
        return item.owesSql();
    }

    /**
     * True: a gold query that fails leaves the question out of EX (listed apart). False: the question stays in and is
     * wrong (BIRD's and MMSQL's scripts).
     */
    boolean goldErrorExcludes();

    /** The verdict, given both executions (either may have failed). */
    boolean matches(ExecutionResult gold, ExecutionResult predicted, String executedGold);

    /**
     * The verdict within what is left of the predicted statement's budget: undecided ("comparison budget exceeded")
     * rather than a hang. Semantics whose comparison can run away (column permutations) bound it themselves.
     */
    default Match match(ExecutionResult gold, ExecutionResult predicted, String executedGold, StatementBudget budget) {
        if (budget.expired()) {
            return Match.undecided(ComparisonBudgetExceeded.VERDICT + ": the statement's time budget of "
                    + budget.timeoutMillis() + " ms ran out");
        }
        return Match.of(matches(gold, predicted, executedGold));
    }
}

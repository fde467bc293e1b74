package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;

/**
 * The official Spider evaluator in execution mode with its defaults (taoyds/test-suite-sql-eval,
 * {@code evaluation.py --etype exec}, no {@code --plug_value}, no {@code --keep_distinct}): the rewrites of
 * {@link SpiderExecRewrites}, then {@code result_eq} ({@link PythonValues#testSuiteEqual}) with row order counting when
 * the rewritten gold contains "order by" anywhere. A failing prediction is wrong; a failing gold stops the official script,
 * here it is listed apart and left out.
 */
public final class SpiderTestSuiteExec implements Semantics {
    public static final String ID = "spider-exec";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "official Spider test-suite evaluator, exec mode with its defaults (taoyds/test-suite-sql-eval evaluation.py "
                + "--etype exec: ' value '->' 1 ', '> ='->'>=', first statement only, DISTINCT removed, YEAR(CURDATE())->2020, "
                + "order counts when the gold contains 'order by', columns may be permuted, exact values)";
    }

    @Override
    public String executedGold(String gold) {
        return SpiderExecRewrites.replaceCurrentYear(SpiderExecRewrites.gold(gold));
    }

    @Override
    public String executedPrediction(String prediction) {
        return SpiderExecRewrites.replaceCurrentYear(SpiderExecRewrites.prediction(prediction));
    }

    @Override
    public boolean goldErrorExcludes() {
        return true;
    }

    @Override
    public Match match(ExecutionResult gold, ExecutionResult predicted, String executedGold, StatementBudget budget) {
        if (!gold.ok() || !predicted.ok()) {
            return Match.DIFFERENT;
        }
        return PythonValues.testSuiteMatch(gold.rows(), predicted.rows(), SpiderExecRewrites.orderMatters(executedGold), budget);
    }

    @Override
    public boolean matches(ExecutionResult gold, ExecutionResult predicted, String executedGold) {
        return gold.ok() && predicted.ok()
                && PythonValues.testSuiteEqual(gold.rows(), predicted.rows(), SpiderExecRewrites.orderMatters(executedGold));
    }
}

package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.sql.ExecutionResult;

/**
 * The official BIRD evaluator ({@code evaluation.py} of bird-bench): no rewrite, the prediction and the gold each run
 * once and match when {@code set(predicted_rows) == set(gold_rows)} (duplicates and row order ignored, column order
 * kept, exact values); a timeout (30 s by default there, {@code --timeout-ms} here) or an error in either query makes
 * the question wrong, and it stays in the denominator.
 */
public final class BirdExec implements Semantics {
    public static final String ID = "bird-exec";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "official BIRD evaluator (bird-bench evaluation.py: set(pred rows) == set(gold rows), column order kept; "
                + "an error or timeout in either query counts wrong)";
    }

    @Override
    public boolean goldErrorExcludes() {
        return false;
    }

    @Override
    public boolean matches(ExecutionResult gold, ExecutionResult predicted, String executedGold) {
        return gold.ok() && predicted.ok() && PythonValues.sameSet(gold.rows(), predicted.rows());
    }
}

package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.metrics.ValidEfficiency;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.exec.SafeExecutor;

import java.util.ArrayList;
import java.util.List;

/**
 * Times a correct prediction against its gold as BIRD's VES script does: both run {@code runs} times,
 * alternately, and the gold/pred ratios (outliers dropped) are averaged.
 */
public final class EfficiencyTimer {
    private final SafeExecutor executor;
    private final int runs;

    public EfficiencyTimer(SafeExecutor executor, int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1");
        }
        this.executor = executor;
        this.runs = runs;
    }

    /** The mean gold/pred time ratio; 0 when a timed run fails. */
    public double timeRatio(String dbId, String goldSql, String predictedSql) {
        List<Double> ratios = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++) {
            ExecutionResult pred = executor.execute(dbId, predictedSql);
            ExecutionResult gold = executor.execute(dbId, goldSql);
            if (!pred.ok() || !gold.ok()) {
                return 0;
            }
            ratios.add((double) Math.max(1, gold.elapsedMicros()) / Math.max(1, pred.elapsedMicros()));
        }
        return ValidEfficiency.meanRatio(ratios);
    }
}

package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.metrics.ValidEfficiency;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;

import java.util.ArrayList;
import java.util.List;

/**
 * Times a correct prediction against its gold as BIRD's VES script does: both run {@code runs} times,
 * alternately (through the operator's door of the database), and the gold/pred ratios (outliers dropped) are averaged.
 */
public final class EfficiencyTimer {
    private final DataDoors doors;
    private final int runs;

    public EfficiencyTimer(DataDoors doors, int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1");
        }
        this.doors = doors;
        this.runs = runs;
    }

    /** The mean gold/pred time ratio; 0 when a timed run fails. */
    public double timeRatio(String dbId, String goldSql, String predictedSql) {
        DataDoor door = doors.operator(dbId);
        List<Double> ratios = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++) {
            ExecutionResult pred = door.execute(predictedSql);
            ExecutionResult gold = door.execute(goldSql);
            if (!pred.ok() || !gold.ok()) {
                return 0;
            }
            ratios.add((double) Math.max(1, gold.elapsedMicros()) / Math.max(1, pred.elapsedMicros()));
        }
        return ValidEfficiency.meanRatio(ratios);
    }
}

package io.flowsql.benchmarks.eval.metrics;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;

import java.util.List;

/**
 * What scoring found for one question: the prediction, whether gold and prediction ran, whether they
 * match, the gold/pred time ratio (VES) and what answering cost; every metric is computed from these.
 *
 * @param goldError     why the gold SQL failed (then the item is left out of EX), or null
 * @param predError     why the predicted SQL failed or was missing, or null
 * @param correct       execution match under the chosen comparison mode
 * @param timeRatio     mean gold/pred time ratio when measured and correct, 0 when incorrect, NaN when not measured
 * @param predictedType the question type the system gave (or inferred from whether it answered with SQL); may be null
 * @param stages        per-stage cost from the answer's trace (empty for plain prediction files)
 */
public record ItemOutcome(
        BenchmarkItem item,
        String predictedSql,
        String predictedType,
        String goldError,
        String predError,
        boolean correct,
        double timeRatio,
        List<StageCost> stages) {

    public ItemOutcome {
        stages = stages == null ? List.of() : List.copyOf(stages);
    }

    /** Whether this item counts for EX: its gold ran. */
    public boolean scorable() {
        return goldError == null;
    }

    public int promptTokens() {
        return stages.stream().mapToInt(StageCost::promptTokens).sum();
    }

    public int completionTokens() {
        return stages.stream().mapToInt(StageCost::completionTokens).sum();
    }

    public long latencyMillis() {
        return stages.stream().mapToLong(StageCost::latencyMillis).sum();
    }
}

package io.flowsql.benchmarks.eval.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * BIRD's efficiency scores from per-question gold/pred time ratios: VES averages 100·sqrt(ratio) over all
 * questions (0 for a wrong answer), R-VES averages 100·reward where the reward buckets the ratio
 * (≥2 → 1.25, [1,2) → 1, [0.5,1) → 0.75, [0.25,0.5) → 0.5, else 0.25; 0 for a wrong answer).
 */
public final class ValidEfficiency {
    private ValidEfficiency() {}

    /**
     * The ratio BIRD keeps from repeated timings: drop values outside mean ± 3·std (population std),
     * then average. When every value would be dropped (all equal, std 0) the plain mean is kept, where
     * BIRD's script would divide by zero.
     */
    public static double meanRatio(List<Double> ratios) {
        if (ratios.isEmpty()) {
            return 0;
        }
        double mean = ratios.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double var = ratios.stream().mapToDouble(r -> (r - mean) * (r - mean)).average().orElse(0);
        double std = Math.sqrt(var);
        List<Double> kept = new ArrayList<>();
        for (double r : ratios) {
            if (r < mean + 3 * std && r > mean - 3 * std) {
                kept.add(r);
            }
        }
        return kept.isEmpty() ? mean : kept.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    public static double reward(double timeRatio) {
        if (timeRatio == 0) {
            return 0;
        }
        if (timeRatio >= 2) {
            return 1.25;
        }
        if (timeRatio >= 1) {
            return 1;
        }
        if (timeRatio >= 0.5) {
            return 0.75;
        }
        if (timeRatio >= 0.25) {
            return 0.5;
        }
        return 0.25;
    }

    /** VES over the measured items (those with a time ratio; NaN means not measured); NaN when none were. */
    public static double ves(List<ItemOutcome> outcomes) {
        List<Double> r = measured(outcomes);
        return r.isEmpty() ? Double.NaN : r.stream().mapToDouble(x -> 100 * Math.sqrt(x)).average().orElse(0);
    }

    /** R-VES over the measured items; NaN when none were. */
    public static double rves(List<ItemOutcome> outcomes) {
        List<Double> r = measured(outcomes);
        return r.isEmpty() ? Double.NaN : r.stream().mapToDouble(x -> 100 * reward(x)).average().orElse(0);
    }

    private static List<Double> measured(List<ItemOutcome> outcomes) {
        return outcomes.stream().filter(o -> o.scorable() && o.item().owesSql() && !Double.isNaN(o.timeRatio()))
                .map(ItemOutcome::timeRatio).toList();
    }
}

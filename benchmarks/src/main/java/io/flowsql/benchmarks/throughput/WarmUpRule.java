package io.flowsql.benchmarks.throughput;

import java.util.List;

/**
 * When a warm-up may end: the last three batches' rates agree within 10 % AND the JIT spent at most
 * {@link #MAX_JIT_SHARE} of the last batch's wall time compiling. Rates alone settle while C2 still compiles (a run at
 * 13:00 on stop 50 saw 720 ms/s of compilation in the idle window after the sustained run), so the measured window
 * would pay for compilation.
 */
final class WarmUpRule {
    /** JIT compilation per second of wall time (summed over compiler threads) at most 10 % of one core. */
    static final double MAX_JIT_SHARE = 0.10;

    private WarmUpRule() {
    }

    /** The last three batches' rates all within 10 % of their mean. */
    static boolean stableRates(List<Double> rates) {
        int n = rates.size();
        if (n < 3) {
            return false;
        }
        List<Double> last = rates.subList(n - 3, n);
        double mean = last.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        return last.stream().allMatch(r -> Math.abs(r - mean) <= 0.1 * mean);
    }

    /** Stable rates and a quiet JIT in the last batch ({@code jitShares}: compilation ms / wall ms per batch). */
    static boolean settled(List<Double> rates, List<Double> jitShares) {
        return stableRates(rates) && !jitShares.isEmpty() && jitShares.get(jitShares.size() - 1) <= MAX_JIT_SHARE;
    }
}

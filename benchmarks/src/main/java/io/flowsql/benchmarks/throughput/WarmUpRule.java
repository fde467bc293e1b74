package io.flowsql.benchmarks.throughput;

import java.util.List;

/**
 * When a warm-up may end: the last three batches' rates agree within 10 % AND the JIT's compiler threads used
 * at most {@link #MAX_JIT_SHARE} of a core in the last batch (their CPU, what {@code jit_ms} reports; the management
 * bean's compilation time counts waiting for a core too: 1.8-2.5 s per second on a loaded machine). Rates alone
 * settle while C2 still compiles (a run at 13:00 on stop 50: 720 ms/s of JIT CPU in the idle window after the
 * sustained run), so the measured window would pay for compilation. Nor may it end before its batches, which walk
 * the questions in order, have asked every usable question once ({@link #settled(List, List, int, int)}): until
 * stop 60 every batch asked the same first 2 × S questions (at S = 64 three databases), and the measured runs met the other
 * seventeen cold (their value indexes, column vectors and code paths built inside the measured window).
 */
final class WarmUpRule {
    /** The compiler threads' CPU per second of wall time, at most 10 % of one core. */
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

    /** Stable rates and a quiet JIT in the last batch ({@code jitShares}: compiler threads' CPU ms / wall ms per batch). */
    static boolean settled(List<Double> rates, List<Double> jitShares) {
        return stableRates(rates) && !jitShares.isEmpty() && jitShares.get(jitShares.size() - 1) <= MAX_JIT_SHARE;
    }

    /** As {@link #settled(List, List)}, and {@code asked} questions cover all {@code usable} ones (every database once). */
    static boolean settled(List<Double> rates, List<Double> jitShares, int asked, int usable) {
        return asked >= usable && settled(rates, jitShares);
    }
}

package io.flowsql.benchmarks.eval.metrics;

import java.util.List;

/** Nearest-rank percentiles of a list of numbers (p50 of [1,2,3,4] is 2), with count and mean beside them. */
public record Percentiles(int count, double mean, long p50, long p90, long p95, long p99, long max) {

    public static Percentiles of(List<Long> values) {
        if (values.isEmpty()) {
            return new Percentiles(0, 0, 0, 0, 0, 0, 0);
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        double mean = values.stream().mapToLong(Long::longValue).average().orElse(0);
        return new Percentiles(sorted.length, mean, rank(sorted, 50), rank(sorted, 90), rank(sorted, 95),
                rank(sorted, 99), sorted[sorted.length - 1]);
    }

    static long rank(long[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}

package io.flowsql.benchmarks.sql;

import java.util.Arrays;

/** Percentiles of per-question latencies, in milliseconds. */
final class LatencyStats {

    private long[] nanos = new long[64];
    private int size;

    void add(long value) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = value;
    }

    double percentileMillis(double p) {
        if (size == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, size);
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * size) - 1;
        return sorted[Math.max(0, Math.min(size - 1, index))] / 1e6;
    }
}

package io.flowsql.benchmarks.throughput;

import java.util.List;

/**
 * The rate at which answers became visible in the middle of a sustained run, measured in whole checkpoint periods.
 * Exactly-once answers become visible in bunches, one per completed checkpoint, so a window with arbitrary edges
 * would count a bunch more or less than the time it covers; the window here runs from the first bunch at or after
 * {@code from} (not counted: it closes the period before the window) to the last bunch at or before {@code to}
 * (counted), so it covers whole periods between two commits.
 *
 * @param answers answers counted in the window
 * @param millis  the window's length, from the first to the last counted bunch
 */
record SteadyRate(int answers, long millis) {

    /** The steady rate of answers whose arrival times (ms since the run's start, ascending) fall in [from, to]. */
    static SteadyRate of(List<Long> arrivals, long fromMillis, long toMillis) {
        long first = -1;
        long last = -1;
        int counted = 0;
        for (long at : arrivals) {
            if (at < fromMillis || at > toMillis) {
                continue;
            }
            if (first < 0) {
                first = at;
            }
            if (at > first) {
                counted++;
                last = at;
            }
        }
        if (last < 0) {
            throw new IllegalStateException("fewer than two answer bunches between " + fromMillis + " and " + toMillis
                    + " ms: the window is too short for the checkpoint interval");
        }
        return new SteadyRate(counted, last - first);
    }

    double perSecond() {
        return answers * 1000.0 / millis;
    }
}

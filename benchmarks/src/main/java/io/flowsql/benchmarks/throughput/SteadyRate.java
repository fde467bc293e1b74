package io.flowsql.benchmarks.throughput;

import java.util.List;

/**
 * The rate at which answers became visible in the middle of a sustained run, measured in whole checkpoint periods.
 * Exactly-once answers become visible in bunches, one per completed checkpoint (read by the client in one or a few
 * polls, from each sink subtask's transaction), so a window with arbitrary edges would count a bunch more or less than
 * the time it covers. Arrivals less than {@link #BUNCH_GAP_MILLIS} apart belong to one bunch; the window runs from the
 * start of the first bunch at or after {@code from} (not counted: it closes the period before the window) to the start
 * of the last bunch starting at or before {@code to} (counted), so it covers whole periods between two commits.
 *
 * @param answers     answers counted in the window
 * @param startMillis the window's start (the first bunch's), in ms since the run's start
 * @param millis      the window's length, from the first to the last counted bunch
 */
record SteadyRate(int answers, long startMillis, long millis) {
    /** Well below any checkpoint interval the job allows, well above the client's poll interval. */
    static final long BUNCH_GAP_MILLIS = 100;

    /** The steady rate of answers whose arrival times (ms since the run's start, ascending) fall in [from, to]. */
    static SteadyRate of(List<Long> arrivals, long fromMillis, long toMillis) {
        long firstStart = -1;
        long lastStart = -1;
        int counted = 0;
        int inBunch = 0;
        long bunchStart = -1;
        long previous = Long.MIN_VALUE;
        for (long at : arrivals) {
            boolean newBunch = previous == Long.MIN_VALUE || at - previous >= BUNCH_GAP_MILLIS;
            previous = at;
            if (newBunch) {
                if (firstStart >= 0 && bunchStart > firstStart && bunchStart <= toMillis) {
                    counted += inBunch;
                    lastStart = bunchStart;
                }
                bunchStart = at;
                inBunch = 0;
                if (firstStart < 0 && at >= fromMillis) {
                    firstStart = at;
                }
            }
            inBunch++;
        }
        if (firstStart >= 0 && bunchStart > firstStart && bunchStart <= toMillis) {
            counted += inBunch;
            lastStart = bunchStart;
        }
        if (lastStart < 0) {
            throw new IllegalStateException("fewer than two answer bunches between " + fromMillis + " and " + toMillis
                    + " ms: the window is too short for the checkpoint interval");
        }
        return new SteadyRate(counted, firstStart, lastStart - firstStart);
    }

    double perSecond() {
        return answers * 1000.0 / millis;
    }
}

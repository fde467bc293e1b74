package io.flowsql.benchmarks.soak;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * When one fault ran: its start and end on the monotonic clock (to compare with answer arrivals) and on the wall clock
 * (to compare with the job's failover times); and how its detection and recovery read.
 */
record FaultRecord(long startNanos, long endNanos, long startMillis, long endMillis) {

    /** "failover +N ms (k in all)" from the first failover after the start, or that the job did not fail over. */
    String detection(OptionalLong firstFailoverMillis, int failovers) {
        if (firstFailoverMillis.isEmpty()) {
            return "no job failover";
        }
        return "job failover +" + Math.max(0, firstFailoverMillis.getAsLong() - startMillis) + " ms"
                + (failovers > 1 ? " (" + failovers + " failovers)" : "");
    }

    /** "+N ms" from {@code fromNanos} to {@code atNanos}, "none" if nothing came ({@code atNanos} 0). */
    String since(long fromNanos, long atNanos) {
        return atNanos == 0 ? "none" : "+" + TimeUnit.NANOSECONDS.toMillis(atNanos - fromNanos) + " ms";
    }
}

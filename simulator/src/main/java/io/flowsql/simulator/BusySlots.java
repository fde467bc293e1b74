package io.flowsql.simulator;

/**
 * A reading of the server's slot clock: at {@code atNanos} (System.nanoTime) the slots had been held {@code slotNanos}
 * slot-nanoseconds in all since start, with {@code slots} slots. Between two readings slotNanos grows by at most
 * slots × the time between them (a slot counts only while held), so {@link #shareSince} is never above 1.
 */
public record BusySlots(long atNanos, long slotNanos, int slots) {

    /** The share of the slots' capacity held between {@code earlier} and this reading (0 when no time passed). */
    public double shareSince(BusySlots earlier) {
        long elapsed = atNanos - earlier.atNanos;
        return elapsed <= 0 ? 0 : (double) (slotNanos - earlier.slotNanos) / ((double) slots * elapsed);
    }
}

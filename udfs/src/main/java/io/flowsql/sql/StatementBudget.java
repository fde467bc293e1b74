package io.flowsql.sql;

/**
 * The one budget of one untrusted statement: a wall-clock deadline shared by every step that handles it (guard
 * parse, execution, encoding the result, comparing it) and a cap on comparison work, so no step can outlive
 * the time the statement was given (time spent queued for a connection is not counted). Created when the statement
 * starts; not shared between statements. A caller that gives up on the statement (a Flink timeout, a stage's
 * cancellation) {@link #cancel}s the budget: every step then stops as if its time had run out, the running SQLite
 * statement included, and its connection goes back to the pool at once.
 */
public final class StatementBudget {

    /**
     * Value encodings a comparison may do by default: a 1,000,000 × 7 result in one column order is about 21 million;
     * a 200,000 × 7 result tried in 5,040 column orders would be 7 billion.
     */
    public static final long DEFAULT_COMPARE_WORK = 50_000_000L;

    private final long timeoutMillis;
    private volatile long deadlineNanos;
    private final long maxCompareWork;
    private volatile boolean cancelled;
    /** What ends the step now blocked on this budget's behalf; guarded by {@code this}. */
    private Runnable stopBlockedStep;

    private StatementBudget(long timeoutMillis, long maxCompareWork) {
        if (timeoutMillis <= 0 || maxCompareWork <= 0) {
            throw new IllegalArgumentException("a statement budget must be positive: " + timeoutMillis + " ms, work " + maxCompareWork);
        }
        this.timeoutMillis = timeoutMillis;
        this.deadlineNanos = System.nanoTime() + timeoutMillis * 1_000_000L;
        this.maxCompareWork = maxCompareWork;
    }

    /** A budget of {@code timeoutMillis} starting now, with the default comparison work cap. */
    public static StatementBudget startingNow(long timeoutMillis) {
        return new StatementBudget(timeoutMillis, DEFAULT_COMPARE_WORK);
    }

    public static StatementBudget startingNow(long timeoutMillis, long maxCompareWork) {
        return new StatementBudget(timeoutMillis, maxCompareWork);
    }

    /** The whole time this statement was given. */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** Milliseconds left, at least 0 (0 once cancelled). */
    public long remainingMillis() {
        return cancelled ? 0 : Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000L);
    }

    /** True once the time ran out or the budget was cancelled. */
    public boolean expired() {
        return cancelled || System.nanoTime() - deadlineNanos >= 0;
    }

    /** True once {@link #cancel} was called. */
    public boolean cancelled() {
        return cancelled;
    }

    /**
     * Gives up on the statement: from now on {@link #expired()} is true, so the running statement is interrupted at its
     * next progress check and the steps after it stop; a step blocked on the budget's behalf is ended (see
     * {@link #whileBlocked}). Safe from any thread, any number of times.
     */
    public synchronized void cancel() {
        if (cancelled) {
            return;
        }
        cancelled = true;
        if (stopBlockedStep != null) {
            stopBlockedStep.run();
        }
    }

    /**
     * Declares how to end the blocking step that is about to start ({@code stop}, e.g. interrupting the waiting
     * thread), or that it ended ({@code null}); a cancel runs it only while it is declared, under this budget's lock,
     * so it never reaches a later step. Returns false, declaring nothing, when the budget is already cancelled.
     */
    public synchronized boolean whileBlocked(Runnable stop) {
        if (cancelled && stop != null) {
            return false;
        }
        stopBlockedStep = stop;
        return true;
    }

    public long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * Gives back time the statement spent queued rather than worked on (waiting for a free connection), so a
     * statement is not charged for other statements' turns.
     */
    public void notCounting(long waitedNanos) {
        if (waitedNanos > 0) {
            deadlineNanos += waitedNanos;
        }
    }

    public long maxCompareWork() {
        return maxCompareWork;
    }
}

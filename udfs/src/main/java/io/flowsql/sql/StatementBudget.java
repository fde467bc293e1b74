package io.flowsql.sql;

/**
 * The one budget of one untrusted statement: a wall-clock deadline shared by every step that handles it (guard
 * parse, execution, encoding the result, comparing it) and a cap on comparison work, so no step can outlive
 * the time the statement was given (time spent queued for a connection is not counted). Created when the statement
 * starts; not shared between statements.
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

    /** Milliseconds left, at least 0. */
    public long remainingMillis() {
        return Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000L);
    }

    public boolean expired() {
        return System.nanoTime() - deadlineNanos >= 0;
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

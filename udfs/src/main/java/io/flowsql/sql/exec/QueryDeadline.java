package io.flowsql.sql.exec;

import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.ProgressHandler;

/**
 * Interrupts a running SQLite statement once its deadline passes (sqlite's progress handler, called
 * every few thousand VM steps), because {@code Statement.setQueryTimeout} does not stop CPU-bound queries.
 * Needs no watchdog thread; the connection stays usable afterwards.
 */
final class QueryDeadline extends ProgressHandler {

    private static final int VM_STEPS_BETWEEN_CHECKS = 5_000;

    private volatile long deadlineNanos;
    private volatile boolean fired;

    static QueryDeadline installOn(Connection connection) throws SQLException {
        QueryDeadline deadline = new QueryDeadline();
        ProgressHandler.setHandler(connection, VM_STEPS_BETWEEN_CHECKS, deadline);
        return deadline;
    }

    /** Arms the deadline at an instant of {@link System#nanoTime()} (a statement budget's). */
    void startUntil(long deadline) {
        fired = false;
        deadlineNanos = deadline == 0 ? 1 : deadline;
    }

    void stop() {
        deadlineNanos = 0;
    }

    boolean passed() {
        long deadline = deadlineNanos;
        return fired || (deadline != 0 && System.nanoTime() - deadline > 0);
    }

    @Override
    protected int progress() {
        long deadline = deadlineNanos;
        if (deadline != 0 && System.nanoTime() - deadline > 0) {
            fired = true;
            return 1;
        }
        return 0;
    }
}

package io.flowsql.sql.engine.sqlite;

import io.flowsql.sql.StatementBudget;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.ProgressHandler;

/**
 * Interrupts a running SQLite statement once its budget is spent (sqlite's progress handler, called every few
 * thousand VM steps, on the thread running the statement), because {@code Statement.setQueryTimeout} does not stop
 * CPU-bound queries. The budget is spent when its deadline passes or when the caller cancels it; an interrupt of the
 * running thread (a cancelled {@code Future}) stops the statement too. Needs no watchdog thread and never calls into
 * the connection from another thread (so a late cancel cannot hit the connection's next statement); the connection
 * stays usable afterwards.
 */
public final class QueryDeadline extends ProgressHandler {

    private static final int VM_STEPS_BETWEEN_CHECKS = 5_000;

    private volatile StatementBudget budget;
    private volatile boolean fired;

    /** Installs a deadline, not yet armed, on a SQLite connection. */
    public static QueryDeadline installOn(Connection connection) throws SQLException {
        QueryDeadline deadline = new QueryDeadline();
        ProgressHandler.setHandler(connection, VM_STEPS_BETWEEN_CHECKS, deadline);
        return deadline;
    }

    /** Arms the deadline for the statement about to run under {@code budget}. */
    public void startFor(StatementBudget budget) {
        fired = false;
        this.budget = budget;
    }

    /** Disarms it once the statement is done. */
    public void stop() {
        budget = null;
    }

    /** True when the statement's budget ran out (or was cancelled) while it ran. */
    public boolean passed() {
        StatementBudget armed = budget;
        return fired || (armed != null && armed.expired());
    }

    @Override
    protected int progress() {
        StatementBudget armed = budget;
        if (armed != null && (armed.expired() || Thread.currentThread().isInterrupted())) {
            fired = true;
            return 1;
        }
        return 0;
    }
}

package io.flowsql.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * The work one request started in one stage, so a timeout can stop it: every LLM call registers how to cancel
 * itself, and so does every SQL statement the stage runs itself ({@link StageSql}: its budget is cancelled, which
 * interrupts the running SQLite statement); {@link #cancel()} runs them all (an action registered afterwards runs at once). Never serialized:
 * it lives in transient fields of the request and its trace entry.
 */
public final class Cancellation {
    private final List<Runnable> actions = new ArrayList<>();
    private boolean cancelled;

    /** Runs {@code action} when this is cancelled (at once if it already is). */
    public void onCancel(Runnable action) {
        synchronized (this) {
            if (!cancelled) {
                actions.add(action);
                return;
            }
        }
        action.run();
    }

    public void cancel() {
        List<Runnable> toRun;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toRun = new ArrayList<>(actions);
            actions.clear();
        }
        toRun.forEach(Runnable::run);
    }

    public synchronized boolean isCancelled() {
        return cancelled;
    }
}

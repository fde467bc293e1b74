package io.flowsql.llm;

import java.util.ArrayList;
import java.util.List;

/**
 * One chat call's cancel switch: the caller cancelling the call's future aborts the HTTP request in flight (which
 * releases its connection permit), drops a wait for a permit, and stops further attempts.
 */
final class CallControl {
    private final List<Runnable> onCancel = new ArrayList<>();
    private boolean cancelled;

    /** Runs {@code action} when the call is cancelled (at once if it already is). */
    void onCancel(Runnable action) {
        synchronized (this) {
            if (!cancelled) {
                onCancel.add(action);
                return;
            }
        }
        action.run();
    }

    void cancel() {
        List<Runnable> toRun;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toRun = new ArrayList<>(onCancel);
            onCancel.clear();
        }
        toRun.forEach(Runnable::run);
    }

    synchronized boolean isCancelled() {
        return cancelled;
    }

    static LlmException cancelledFailure() {
        return new LlmException(LlmErrorKind.CANCELLED, "cancelled by the caller (its stage timed out)");
    }
}

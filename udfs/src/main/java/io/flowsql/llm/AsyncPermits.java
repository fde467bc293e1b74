package io.flowsql.llm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client's concurrency bound: a semaphore that never blocks a thread. Acquiring returns a future that completes
 * when a permit is free, in arrival order, or fails when the queue budget runs out; a waiter whose future was failed
 * or cancelled meanwhile is skipped, so it never takes a permit.
 *
 * <p>Kept instead of Failsafe's {@code Bulkhead}: in Failsafe 3.3.2 an async bulkhead whose waiter gives up after its
 * max wait time still receives the next released permit, which is then never released (failsafe-lib/failsafe#393, fix
 * #400 unreleased): under load with a queue budget the bulkhead loses every permit and stops.
 */
final class AsyncPermits {
    private final Deque<CompletableFuture<Void>> waiters = new ArrayDeque<>();
    private final int permits;
    private int available;

    AsyncPermits(int permits) {
        this.permits = permits;
        this.available = permits;
    }

    /** A permit, or a QUEUE_TIMEOUT failure once {@code budget} has passed without one; cancel the future to stop waiting. */
    CompletableFuture<Void> acquire(Duration budget, ScheduledExecutorService timer) {
        CompletableFuture<Void> waiter;
        synchronized (this) {
            if (available > 0) {
                available--;
                return CompletableFuture.completedFuture(null);
            }
            waiter = new CompletableFuture<>();
            if (!budget.isZero()) {
                waiters.add(waiter);
            }
        }
        if (budget.isZero()) {
            waiter.completeExceptionally(queueTimeout(budget));
            return waiter;
        }
        ScheduledFuture<?> expiry = timer.schedule(() -> waiter.completeExceptionally(queueTimeout(budget)),
                budget.toNanos(), TimeUnit.NANOSECONDS);
        waiter.whenComplete((ok, error) -> expiry.cancel(false));
        return waiter;
    }

    private LlmException queueTimeout(Duration budget) {
        return new LlmException(LlmErrorKind.QUEUE_TIMEOUT, "no connection permit free within the queue budget of "
                + budget.toMillis() + " ms (llm.queue-budget; " + permits + " permits, llm.max-concurrency): nothing was sent");
    }

    void release() {
        CompletableFuture<Void> next;
        synchronized (this) {
            while (true) {
                next = waiters.poll();
                if (next == null) {
                    available++;
                    return;
                }
                if (!next.isDone()) {
                    break;
                }
            }
        }
        if (!next.complete(null)) {
            release();
        }
    }
}

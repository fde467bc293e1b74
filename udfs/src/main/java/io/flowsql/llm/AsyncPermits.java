package io.flowsql.llm;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/**
 * A semaphore that never blocks a thread: acquiring returns a future that completes when a permit
 * is free, in arrival order; a waiter whose future was failed meanwhile (its budget ran out) is skipped.
 */
final class AsyncPermits {
    private final Deque<CompletableFuture<Void>> waiters = new ArrayDeque<>();
    private int available;

    AsyncPermits(int permits) {
        this.available = permits;
    }

    CompletableFuture<Void> acquire() {
        synchronized (this) {
            if (available > 0) {
                available--;
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> waiter = new CompletableFuture<>();
            waiters.add(waiter);
            return waiter;
        }
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

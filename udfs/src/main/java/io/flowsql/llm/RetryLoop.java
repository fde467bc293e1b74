package io.flowsql.llm;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The only retry layer of the client: repeats an attempt on transient failures after a backoff or
 * the server's Retry-After, and turns a spent attempt count, retry window or time budget into
 * RETRIES_EXHAUSTED. The retry window (counted from the first failure) is what lets a call ride out a
 * server restart: attempts go on, with capped backoff, until the server is back or the window is spent.
 */
final class RetryLoop {
    /** A value and how many attempts it took. */
    record Retried<T>(T value, int attempts) {}

    private final int maxAttempts;
    private final long retryWindowNanos;
    private final BackoffPolicy backoff;
    private final ScheduledExecutorService scheduler;

    RetryLoop(int maxAttempts, Duration retryWindow, BackoffPolicy backoff, ScheduledExecutorService scheduler) {
        this.maxAttempts = maxAttempts;
        this.retryWindowNanos = retryWindow.toNanos();
        this.backoff = backoff;
        this.scheduler = scheduler;
    }

    <T> CompletableFuture<Retried<T>> run(Supplier<CompletableFuture<T>> attempt, long deadlineNanos) {
        CompletableFuture<Retried<T>> result = new CompletableFuture<>();
        runAttempt(attempt, 1, deadlineNanos, 0L, result);
        return result;
    }

    private <T> void runAttempt(Supplier<CompletableFuture<T>> attempt, int number, long deadlineNanos,
            long firstFailureNanos, CompletableFuture<Retried<T>> result) {
        CompletableFuture<T> future;
        try {
            future = attempt.get();
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        future.whenComplete((value, error) -> {
            if (error == null) {
                result.complete(new Retried<>(value, number));
                return;
            }
            LlmException failure = FailureClassifier.ofThrowable(error);
            long now = System.nanoTime();
            long firstFailure = number == 1 ? now : firstFailureNanos;
            if (!failure.kind().isTransient()) {
                result.completeExceptionally(new LlmException(failure.kind(), failure.detail(), number, failure));
                return;
            }
            if (number >= maxAttempts) {
                result.completeExceptionally(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                        number + " attempts failed, last: " + detail(failure), number, failure));
                return;
            }
            Optional<Duration> retryAfter = failure instanceof AttemptFailure a ? a.retryAfter() : Optional.empty();
            long delayNanos = backoff.delayBefore(number + 1, retryAfter).toNanos();
            if (now + delayNanos >= deadlineNanos) {
                result.completeExceptionally(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                        "call budget spent after " + number + " attempts, last: " + detail(failure), number, failure));
                return;
            }
            if (now + delayNanos - firstFailure > retryWindowNanos) {
                result.completeExceptionally(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED, "still failing after "
                        + number + " attempts over the " + Duration.ofNanos(retryWindowNanos).toSeconds()
                        + " s retry window, last: " + detail(failure), number, failure));
                return;
            }
            scheduler.schedule(() -> runAttempt(attempt, number + 1, deadlineNanos, firstFailure, result),
                    delayNanos, TimeUnit.NANOSECONDS);
        });
    }

    /** The last failure as "KIND: detail", the kind named once. */
    private static String detail(LlmException failure) {
        return failure.kind() + ": " + failure.detail();
    }
}

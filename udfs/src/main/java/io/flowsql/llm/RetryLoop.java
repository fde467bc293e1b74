package io.flowsql.llm;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The only retry layer of the client: repeats an attempt on transient failures after a backoff or
 * the server's Retry-After, and turns a spent attempt count or time budget into RETRIES_EXHAUSTED.
 */
final class RetryLoop {
    /** A value and how many attempts it took. */
    record Retried<T>(T value, int attempts) {}

    private final int maxAttempts;
    private final BackoffPolicy backoff;
    private final ScheduledExecutorService scheduler;

    RetryLoop(int maxAttempts, BackoffPolicy backoff, ScheduledExecutorService scheduler) {
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.scheduler = scheduler;
    }

    <T> CompletableFuture<Retried<T>> run(Supplier<CompletableFuture<T>> attempt, long deadlineNanos) {
        CompletableFuture<Retried<T>> result = new CompletableFuture<>();
        runAttempt(attempt, 1, deadlineNanos, result);
        return result;
    }

    private <T> void runAttempt(Supplier<CompletableFuture<T>> attempt, int number, long deadlineNanos,
            CompletableFuture<Retried<T>> result) {
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
            if (!failure.kind().isTransient()) {
                result.completeExceptionally(new LlmException(failure.kind(), detail(failure), number, failure));
                return;
            }
            if (number >= maxAttempts) {
                result.completeExceptionally(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                        number + " attempts failed, last: " + detail(failure), number, failure));
                return;
            }
            Optional<Duration> retryAfter = failure instanceof AttemptFailure a ? a.retryAfter() : Optional.empty();
            long delayNanos = backoff.delayBefore(number + 1, retryAfter).toNanos();
            if (System.nanoTime() + delayNanos >= deadlineNanos) {
                result.completeExceptionally(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                        "call budget spent after " + number + " attempts, last: " + detail(failure), number, failure));
                return;
            }
            scheduler.schedule(() -> runAttempt(attempt, number + 1, deadlineNanos, result), delayNanos,
                    TimeUnit.NANOSECONDS);
        });
    }

    private static String detail(LlmException failure) {
        return failure.getMessage();
    }
}

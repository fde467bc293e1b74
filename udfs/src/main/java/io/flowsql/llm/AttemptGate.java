package io.flowsql.llm;

import dev.failsafe.ExecutionContext;
import dev.failsafe.Policy;
import dev.failsafe.PolicyConfig;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import dev.failsafe.spi.ExecutionResult;
import dev.failsafe.spi.FailsafeFuture;
import dev.failsafe.spi.PolicyExecutor;
import dev.failsafe.spi.Scheduler;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every attempt of one exchange passes through, as a Failsafe policy between the retry policy and the attempt's
 * timeout. Before an attempt: the local rate limits, then a connection permit, waiting at most the queue budget
 * (QUEUE_TIMEOUT after it; nothing is sent). After it: the permit is freed and the failure classified (a timeout of the
 * attempt is TIMEOUT; a transient failure once the retry window, counted from the first failure, has passed ends the
 * call with RETRIES_EXHAUSTED). Cancelling the call drops a wait and never leaves a permit taken. One gate per
 * exchange: it counts the attempts sent and words the exchange's final error.
 */
final class AttemptGate implements Policy<WireCompletion> {
    private static final PolicyConfig<WireCompletion> NO_LISTENERS = new PolicyConfig<>() {};

    /** What the gates of one client share. */
    record Limits(AsyncPermits permits, LocalRateLimiter limiter, Duration queueBudget, Duration retryWindow,
            Timeout<WireCompletion> attemptTimeout, ScheduledExecutorService timer) {}

    private final Limits limits;
    private final long promptEstimate;
    private final long deadlineNanos;
    private final AtomicBoolean holding = new AtomicBoolean();
    private volatile int attempts;
    private volatile LlmException lastFailure;
    private volatile long firstFailureNanos = Long.MIN_VALUE;

    AttemptGate(Limits limits, long promptEstimate, long deadlineNanos) {
        this.limits = limits;
        this.promptEstimate = promptEstimate;
        this.deadlineNanos = deadlineNanos;
    }

    /** HTTP attempts sent so far. */
    int attempts() {
        return attempts;
    }

    static LlmException cancelled() {
        return new LlmException(LlmErrorKind.CANCELLED, "cancelled by the caller (its stage timed out)");
    }

    @Override
    public PolicyConfig<WireCompletion> getConfig() {
        return NO_LISTENERS;
    }

    @Override
    public PolicyExecutor<WireCompletion> toExecutor(int policyIndex) {
        return new PolicyExecutor<>(this, policyIndex) {
            @Override
            protected CompletableFuture<ExecutionResult<WireCompletion>> preExecuteAsync(Scheduler scheduler,
                    FailsafeFuture<WireCompletion> future) {
                Admission admission = new Admission();
                future.setCancelFn(this, (mayInterrupt, result) -> admission.cancel());
                return admission.start();
            }

            @Override
            protected void onSuccess(ExecutionResult<WireCompletion> result) {
                release();
            }

            @Override
            protected ExecutionResult<WireCompletion> onFailure(ExecutionContext<WireCompletion> context,
                    ExecutionResult<WireCompletion> result) {
                release();
                return ExecutionResult.exception(classify(result.getException()));
            }
        };
    }

    private void release() {
        if (holding.compareAndSet(true, false)) {
            limits.permits().release();
        }
    }

    /** One attempt's wait for the rate limits and a permit; completes with a non-result to go ahead, null if cancelled. */
    private final class Admission {
        private final CompletableFuture<ExecutionResult<WireCompletion>> outcome = new CompletableFuture<>();
        private volatile boolean cancelled;
        private volatile CompletableFuture<Void> pending;

        CompletableFuture<ExecutionResult<WireCompletion>> start() {
            if (!limits.limiter().limits()) {
                waitForPermit();
                return outcome;
            }
            CompletableFuture<Void> rate = limits.limiter().acquire(promptEstimate, deadlineNanos);
            pending = rate;
            rate.whenComplete((ok, error) -> {
                if (error != null) {
                    settle(error);
                } else {
                    waitForPermit();
                }
            });
            return outcome;
        }

        private void waitForPermit() {
            if (cancelled) {
                outcome.complete(null);
                return;
            }
            CompletableFuture<Void> permit = limits.permits().acquire(limits.queueBudget(), limits.timer());
            pending = permit;
            if (cancelled) {
                permit.cancel(false);
            }
            permit.whenComplete((ok, error) -> {
                if (error != null) {
                    settle(error);
                } else if (cancelled) {
                    limits.permits().release();
                    outcome.complete(null);
                } else {
                    holding.set(true);
                    attempts++;
                    outcome.complete(ExecutionResult.none());
                }
            });
        }

        private void settle(Throwable error) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cancelled || cause instanceof CancellationException) {
                outcome.complete(null);
            } else {
                LlmException failure = FailureClassifier.ofThrowable(cause);
                lastFailure = failure;
                outcome.complete(ExecutionResult.exception(failure));
            }
        }

        void cancel() {
            cancelled = true;
            CompletableFuture<Void> waiting = pending;
            if (waiting != null) {
                waiting.cancel(false);
            }
        }
    }

    /** An attempt's failure as the retry policy reads it: typed, and final once the retry window is spent. */
    private LlmException classify(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        LlmException failure;
        if (cause instanceof TimeoutExceededException timeout && timeout.getTimeout() == limits.attemptTimeout()) {
            failure = new AttemptFailure(LlmErrorKind.TIMEOUT, "no answer within the request timeout of "
                    + limits.attemptTimeout().getConfig().getTimeout().toMillis() + " ms (llm.request-timeout)",
                    Optional.empty(), timeout);
        } else if (cause instanceof CancellationException) {
            failure = cancelled();
        } else {
            failure = FailureClassifier.ofThrowable(cause);
        }
        if (failure.kind().isTransient()) {
            long now = System.nanoTime();
            if (firstFailureNanos == Long.MIN_VALUE) {
                firstFailureNanos = now;
            } else if (now - firstFailureNanos > limits.retryWindow().toNanos()) {
                failure = new LlmException(LlmErrorKind.RETRIES_EXHAUSTED, "still failing after " + attempts
                        + " attempts over the " + limits.retryWindow().toSeconds() + " s retry window (llm.retry-window), "
                        + "last: " + failure.kind() + ": " + failure.detail(), attempts, failure);
            }
        }
        lastFailure = failure;
        return failure;
    }

    /**
     * The exchange's final failure, worded once: the caller's cancel, the call's budget spent, the attempts spent on
     * transient failures (RETRIES_EXHAUSTED naming the last one), or the failure that is not retried.
     */
    LlmException outcome(Throwable error, Timeout<WireCompletion> budget) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        int sent = attempts;
        LlmException last = lastFailure;
        String lastWords = last == null ? "" : ", last: " + last.kind() + ": " + last.detail();
        if (cause instanceof CancellationException) {
            return new LlmException(LlmErrorKind.CANCELLED, cancelled().detail(), sent, cause);
        }
        if (cause instanceof TimeoutExceededException timeout && timeout.getTimeout() == budget) {
            return new LlmException(LlmErrorKind.RETRIES_EXHAUSTED, "call budget (llm.total-budget) spent after " + sent
                    + " attempts" + lastWords, sent, last == null ? cause : last);
        }
        LlmException failure = FailureClassifier.ofThrowable(cause);
        if (failure.kind().isTransient()) {
            return new LlmException(LlmErrorKind.RETRIES_EXHAUSTED, sent + " attempts failed" + lastWords, sent, failure);
        }
        return new LlmException(failure.kind(), failure.detail(), sent, failure);
    }
}

package io.flowsql.llm;

import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import dev.failsafe.Timeout;
import dev.failsafe.spi.DefaultScheduledFuture;
import dev.failsafe.spi.Scheduler;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The Failsafe policies of the client, built from its configuration: the retry policy (which failures, how many
 * attempts, exponential backoff with jitter, the server's Retry-After), the attempt's and the call's timeouts, and
 * the scheduler they wait on.
 */
final class CallPolicies {
    /** Each backoff is spread by ±20 % so that many clients do not retry in lockstep. */
    static final double JITTER = 0.2;

    private CallPolicies() {}

    /**
     * Retries transient failures (429, 5xx, connection errors, attempt timeouts, malformed bodies: {@link
     * LlmErrorKind#isTransient()}) up to {@code maxAttempts} attempts in all, waiting the server's Retry-After when it
     * sent one (capped by {@code maxRetryAfter}; the jitter only ever lengthens it), else {@code initialBackoff} doubling
     * to {@code maxBackoff}.
     */
    static RetryPolicy<WireCompletion> retryPolicy(LlmClientConfig config) {
        RetryPolicyBuilder<WireCompletion> builder = RetryPolicy.<WireCompletion>builder()
                .handleIf((result, failure) -> failure instanceof LlmException typed && typed.kind().isTransient())
                .withMaxAttempts(config.maxAttempts())
                .withJitter(JITTER)
                .withDelayFn(context -> retryAfter(context.getLastException(), config.maxRetryAfter()));
        return (config.initialBackoff().compareTo(config.maxBackoff()) < 0
                ? builder.withBackoff(config.initialBackoff(), config.maxBackoff())
                : builder.withDelay(config.initialBackoff())).build();
    }

    /** No computed delay: Failsafe 3.3.2 then uses the backoff (a null here fails the call). */
    private static final Duration USE_BACKOFF = Duration.ofNanos(-1);

    /** The server's Retry-After (capped), scaled so that the jitter Failsafe adds never makes it shorter. */
    private static Duration retryAfter(Throwable failure, Duration cap) {
        if (!(failure instanceof AttemptFailure attempt) || attempt.retryAfter().isEmpty()) {
            return USE_BACKOFF;
        }
        Duration asked = attempt.retryAfter().get();
        long millis = (asked.compareTo(cap) > 0 ? cap : asked).toMillis();
        return Duration.ofMillis(Math.round(millis / (1 - JITTER)));
    }

    /** One attempt's limit, from when it is sent: Failsafe cancels the attempt, which aborts its HTTP exchange. */
    static Timeout<WireCompletion> attemptTimeout(LlmClientConfig config) {
        return Timeout.<WireCompletion>builder(config.callTimeout()).withInterrupt().build();
    }

    /** The rest of a call's budget: when it runs out, the attempt in flight or the wait for the next is cancelled. */
    static Timeout<WireCompletion> budget(Duration remaining) {
        return Timeout.<WireCompletion>builder(remaining).withInterrupt().build();
    }

    /**
     * Failsafe's scheduler for one client: work due now runs at once on the calling thread (a call's first attempt
     * starts inside {@code chat}, as a direct call would), delays and timeouts on the client's timer thread.
     */
    static Scheduler scheduler(ScheduledExecutorService timer) {
        return (callable, delay, unit) -> {
            if (delay > 0) {
                return timer.schedule(callable, delay, unit);
            }
            try {
                callable.call();
            } catch (Exception e) {
                throw new IllegalStateException("could not start an LLM attempt", e);
            }
            return new DefaultScheduledFuture<>();
        };
    }
}

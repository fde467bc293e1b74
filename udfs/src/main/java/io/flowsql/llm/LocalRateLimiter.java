package io.flowsql.llm;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps this client under the endpoint's requests-per-minute and tokens-per-minute allowances with
 * two token buckets, waiting on a scheduler (never a blocked thread) and giving up at the call's deadline.
 */
final class LocalRateLimiter {
    private final Bucket requests;
    private final Bucket tokens;
    private final long tokenCapacity;
    private final ScheduledExecutorService scheduler;

    LocalRateLimiter(int requestsPerMinute, int tokensPerMinute, Duration burst, ScheduledExecutorService scheduler) {
        this.requests = requestsPerMinute > 0 ? bucket(requestsPerMinute, burst) : null;
        this.tokenCapacity = tokensPerMinute > 0 ? capacity(tokensPerMinute, burst) : 0;
        this.tokens = tokensPerMinute > 0 ? bucket(tokensPerMinute, burst) : null;
        this.scheduler = scheduler;
    }

    private static long capacity(int perMinute, Duration burst) {
        return Math.max(1, (long) Math.ceil(perMinute * burst.toMillis() / 60_000.0));
    }

    private static Bucket bucket(int perMinute, Duration burst) {
        long capacity = capacity(perMinute, burst);
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(capacity).refillGreedy(perMinute, Duration.ofMinutes(1))
                        .initialTokens(capacity).build())
                .build();
    }

    /** Completes when one request and the estimated prompt tokens may be spent; fails past the deadline. */
    CompletableFuture<Void> acquire(long estimatedTokens, long deadlineNanos) {
        long tokenAmount = Math.min(estimatedTokens, Math.max(tokenCapacity, 1));
        return take(requests, 1, deadlineNanos, new CompletableFuture<>())
                .thenCompose(ignored -> take(tokens, tokenAmount, deadlineNanos, new CompletableFuture<>()));
    }

    /** Charges tokens the estimate missed (the completion), taking the bucket into debt if needed. */
    void charge(long extraTokens) {
        if (tokens != null && extraTokens > 0) {
            tokens.consumeIgnoringRateLimits(extraTokens);
        }
    }

    private CompletableFuture<Void> take(Bucket bucket, long amount, long deadlineNanos,
            CompletableFuture<Void> result) {
        if (bucket == null || amount <= 0) {
            result.complete(null);
            return result;
        }
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(amount);
        if (probe.isConsumed()) {
            result.complete(null);
            return result;
        }
        long wait = probe.getNanosToWaitForRefill();
        if (System.nanoTime() + wait > deadlineNanos) {
            result.completeExceptionally(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                    "call budget spent waiting for the local rate limit"));
            return result;
        }
        scheduler.schedule(() -> take(bucket, amount, deadlineNanos, result), wait, TimeUnit.NANOSECONDS);
        return result;
    }
}

package io.flowsql.llm;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.SchedulingBucket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Keeps this client under the endpoint's requests-per-minute and tokens-per-minute allowances with two bucket4j
 * buckets, waiting through bucket4j's own scheduler API (a reservation completed on the client's timer thread, never a
 * blocked thread) and failing at once when the wait would pass the call's deadline.
 */
final class LocalRateLimiter {
    private final Bucket requests;
    private final Bucket tokens;
    private final long tokenCapacity;
    private final ScheduledExecutorService timer;

    LocalRateLimiter(int requestsPerMinute, int tokensPerMinute, Duration burst, ScheduledExecutorService timer) {
        this.requests = requestsPerMinute > 0 ? bucket(requestsPerMinute, burst) : null;
        this.tokenCapacity = tokensPerMinute > 0 ? capacity(tokensPerMinute, burst) : 0;
        this.tokens = tokensPerMinute > 0 ? bucket(tokensPerMinute, burst) : null;
        this.timer = timer;
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

    boolean limits() {
        return requests != null || tokens != null;
    }

    /**
     * Completes when one request and the estimated prompt tokens may be spent (at once when both buckets allow it);
     * fails when the wait would pass {@code deadlineNanos}. A token estimate above the bucket's capacity waits for a
     * full bucket (the rest is charged after the call).
     */
    CompletableFuture<Void> acquire(long estimatedTokens, long deadlineNanos) {
        CompletableFuture<Void> request = take(requests, 1, deadlineNanos);
        long tokenAmount = Math.min(estimatedTokens, Math.max(tokenCapacity, 1));
        return tokens == null || tokenAmount <= 0 ? request
                : request.thenCompose(ok -> take(tokens, tokenAmount, deadlineNanos));
    }

    /** Charges tokens the estimate missed (the completion), taking the bucket into debt if needed. */
    void charge(long extraTokens) {
        if (tokens != null && extraTokens > 0) {
            tokens.consumeIgnoringRateLimits(extraTokens);
        }
    }

    private CompletableFuture<Void> take(Bucket bucket, long amount, long deadlineNanos) {
        if (bucket == null) {
            return CompletableFuture.completedFuture(null);
        }
        SchedulingBucket scheduling = bucket.asScheduler();
        long maxWait = Math.max(0, deadlineNanos - System.nanoTime());
        return scheduling.tryConsume(amount, maxWait, timer).thenApply(taken -> {
            if (!taken) {
                throw new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                        "call budget spent waiting for the local rate limit (llm.requests-per-minute, llm.tokens-per-minute)");
            }
            return null;
        });
    }
}

package io.flowsql.llm;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long to wait before the next attempt: the server's Retry-After when it gives one (capped),
 * else exponential backoff with full jitter, so many clients do not retry in lockstep.
 */
final class BackoffPolicy {
    private final Duration initial;
    private final Duration max;
    private final Duration maxRetryAfter;

    BackoffPolicy(Duration initial, Duration max, Duration maxRetryAfter) {
        this.initial = initial;
        this.max = max;
        this.maxRetryAfter = maxRetryAfter;
    }

    /** The wait before attempt number {@code nextAttempt} (2 for the first retry). */
    Duration delayBefore(int nextAttempt, Optional<Duration> retryAfter) {
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get();
            return asked.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : asked;
        }
        long ceiling = Math.min(max.toMillis(), initial.toMillis() << Math.min(20, nextAttempt - 2));
        long half = ceiling / 2;
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(half + 1));
    }
}

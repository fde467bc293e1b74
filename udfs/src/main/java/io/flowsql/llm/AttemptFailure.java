package io.flowsql.llm;

import java.time.Duration;
import java.util.Optional;

/** A failed HTTP attempt, carrying the server's Retry-After when it sent one. */
final class AttemptFailure extends LlmException {
    private final transient Optional<Duration> retryAfter;

    AttemptFailure(LlmErrorKind kind, String message, Optional<Duration> retryAfter, Throwable cause) {
        super(kind, message, 1, cause);
        this.retryAfter = retryAfter;
    }

    Optional<Duration> retryAfter() {
        return retryAfter == null ? Optional.empty() : retryAfter;
    }
}

package io.flowsql.llm;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Maps HTTP statuses and transport exceptions to typed {@link LlmErrorKind}s the retry loop reads. */
final class FailureClassifier {
    private FailureClassifier() {}

    static AttemptFailure ofStatus(int status, String retryAfterHeader, String bodySnippet) {
        Optional<Duration> retryAfter = parseRetryAfter(retryAfterHeader);
        LlmErrorKind kind;
        if (status == 429) {
            kind = LlmErrorKind.RATE_LIMITED;
        } else if (status == 401 || status == 403) {
            kind = LlmErrorKind.AUTHENTICATION;
        } else if (status == 408) {
            kind = LlmErrorKind.TIMEOUT;
        } else if (status >= 500) {
            kind = LlmErrorKind.SERVER_ERROR;
        } else {
            kind = LlmErrorKind.INVALID_REQUEST;
        }
        return new AttemptFailure(kind, "HTTP " + status + ": " + bodySnippet, retryAfter, null);
    }

    static LlmException ofThrowable(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof LlmException typed) {
            return typed;
        }
        if (cause instanceof TimeoutException) {
            return new AttemptFailure(LlmErrorKind.TIMEOUT, "no answer in time: " + cause.getMessage(),
                    Optional.empty(), cause);
        }
        if (cause instanceof ConnectException || cause instanceof IOException) {
            return new AttemptFailure(LlmErrorKind.CONNECTION, cause.getClass().getSimpleName() + ": "
                    + cause.getMessage(), Optional.empty(), cause);
        }
        return new AttemptFailure(LlmErrorKind.CONNECTION, String.valueOf(cause), Optional.empty(), cause);
    }

    /** Retry-After in seconds (the form inference servers send); an HTTP date is ignored. */
    static Optional<Duration> parseRetryAfter(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        try {
            double seconds = Double.parseDouble(header.trim());
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofMillis((long) (seconds * 1000)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}

package io.flowsql.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/** Maps HTTP statuses and transport exceptions to typed {@link LlmErrorKind}s the retry loop reads. */
final class FailureClassifier {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How llama.cpp, vLLM and OpenAI say that a prompt does not fit the context. */
    private static final Pattern CONTEXT_OVERFLOW = Pattern.compile(
            "exceed_context_size|context_length_exceeded|exceeds? the (available )?context|maximum context length",
            Pattern.CASE_INSENSITIVE);

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
        } else if (status == 501) {
            // Not Implemented: the server lacks the endpoint (llama-server without --embeddings answers every
            // /v1/embeddings call so); asking again within the retry window only makes the caller wait it out
            kind = LlmErrorKind.INVALID_REQUEST;
        } else if (status >= 500) {
            kind = LlmErrorKind.SERVER_ERROR;
        } else if (CONTEXT_OVERFLOW.matcher(bodySnippet).find()) {
            kind = LlmErrorKind.CONTEXT_OVERFLOW;
        } else {
            kind = LlmErrorKind.INVALID_REQUEST;
        }
        return new AttemptFailure(kind, "HTTP " + status + ": " + serverMessage(bodySnippet), retryAfter, null);
    }

    /**
     * The server's own words: {@code error.message} (OpenAI, vLLM, llama.cpp), {@code message} or
     * {@code detail}, else the body itself, at most 300 characters.
     */
    static String serverMessage(String body) {
        String text = body == null ? "" : body.strip();
        try {
            JsonNode root = JSON.readTree(text);
            if (root != null) {
                for (JsonNode candidate : List.of(root.path("error").path("message"), root.path("error"),
                        root.path("message"), root.path("detail"))) {
                    if (candidate.isTextual() && !candidate.asText().isBlank()) {
                        text = candidate.asText().strip();
                        break;
                    }
                }
            }
        } catch (IOException | RuntimeException notJson) {
            // not JSON: the body as it is
        }
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
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

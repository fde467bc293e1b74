package io.flowsql.llm;

/** Why an LLM call failed; retry predicates and the answer's error field read this. */
public enum LlmErrorKind {
    RATE_LIMITED(true),
    SERVER_ERROR(true),
    TIMEOUT(true),
    CONNECTION(true),
    MALFORMED_RESPONSE(true),
    INVALID_REQUEST(false),
    AUTHENTICATION(false),
    RETRIES_EXHAUSTED(false),
    UNPARSEABLE_OUTPUT(false),
    /** The prompt (plus the reply budget) does not fit the model's context: the configured one or the server's. */
    CONTEXT_OVERFLOW(false),
    /** The reply was cut at max_tokens (finish_reason "length") even after a re-ask with a larger budget. */
    TRUNCATED_OUTPUT(false),
    /** An attempt waited longer than the queue budget (llm.queue-budget) for a connection permit; it was not sent. */
    QUEUE_TIMEOUT(false),
    /** The caller cancelled the call (its stage timed out): the HTTP request was aborted and nothing is retried. */
    CANCELLED(false);

    private final boolean transientFailure;

    LlmErrorKind(boolean transientFailure) {
        this.transientFailure = transientFailure;
    }

    /** Whether a retry of the same request may succeed. */
    public boolean isTransient() {
        return transientFailure;
    }
}

package io.flowsql.llm;

/** A typed failure of an LLM call (or of reading its output); never carries the API key. */
public class LlmException extends RuntimeException {
    private final LlmErrorKind kind;
    private final int attempts;
    private final String detail;

    /** @param message what went wrong, without the kind (the message reads "KIND: message") */
    public LlmException(LlmErrorKind kind, String message, int attempts, Throwable cause) {
        super(kind + ": " + message, cause);
        this.kind = kind;
        this.attempts = attempts;
        this.detail = message;
    }

    public LlmException(LlmErrorKind kind, String message) {
        this(kind, message, 1, null);
    }

    public LlmErrorKind kind() {
        return kind;
    }

    /** The message without the kind, for wrapping this failure in another without naming the kind twice. */
    public String detail() {
        return detail;
    }

    /** How many HTTP attempts were made before giving up. */
    public int attempts() {
        return attempts;
    }
}

package io.flowsql.llm;

/**
 * What one finished chat call cost, reported to the {@link UsageMeter} and its listeners; {@code error}
 * is null for a success.
 */
public record UsageRecord(String stage, String model, TokenUsage usage, int retries, long latencyMillis,
        LlmErrorKind error) {

    public boolean failed() {
        return error != null;
    }
}

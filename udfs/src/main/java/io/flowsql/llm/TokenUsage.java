package io.flowsql.llm;

/** Prompt and completion tokens of one call; {@code estimated} when the server reported none and a tokenizer counted them. */
public record TokenUsage(int promptTokens, int completionTokens, boolean estimated) {
    public static final TokenUsage NONE = new TokenUsage(0, 0, false);

    public int totalTokens() {
        return promptTokens + completionTokens;
    }

    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                estimated || other.estimated);
    }
}

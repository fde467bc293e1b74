package io.flowsql.llm;

/**
 * Prompt and completion tokens of one call; {@code estimated} when the server reported none and a tokenizer counted
 * them; {@code cachedPromptTokens}: the prompt tokens the server took from its prefix cache (OpenAI/vLLM
 * {@code usage.prompt_tokens_details.cached_tokens}, llama.cpp {@code timings.cache_n}; 0 when not reported).
 */
public record TokenUsage(int promptTokens, int completionTokens, boolean estimated, int cachedPromptTokens) {
    public static final TokenUsage NONE = new TokenUsage(0, 0, false);

    public TokenUsage(int promptTokens, int completionTokens, boolean estimated) {
        this(promptTokens, completionTokens, estimated, 0);
    }

    public int totalTokens() {
        return promptTokens + completionTokens;
    }

    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                estimated || other.estimated, cachedPromptTokens + other.cachedPromptTokens);
    }

    /** The same counts with the server's cached prompt tokens (never more than the prompt). */
    public TokenUsage withCached(int cached) {
        return new TokenUsage(promptTokens, completionTokens, estimated, Math.min(promptTokens, Math.max(0, cached)));
    }
}

package io.flowsql.simulator;

/**
 * Tokens the simulated server counted over the completions it answered (four characters a token): prompt tokens,
 * the part of them its prefix cache held (served without prefill latency), completion tokens.
 */
public record TokenCounts(long completions, long promptTokens, long cachedPromptTokens, long completionTokens) {

    /** Cached share of the prompt tokens, 0 when there were none. */
    public double cachedShare() {
        return promptTokens == 0 ? 0 : (double) cachedPromptTokens / promptTokens;
    }

    /** What was counted between an earlier snapshot and this one. */
    public TokenCounts minus(TokenCounts earlier) {
        return new TokenCounts(completions - earlier.completions, promptTokens - earlier.promptTokens,
                cachedPromptTokens - earlier.cachedPromptTokens, completionTokens - earlier.completionTokens);
    }
}

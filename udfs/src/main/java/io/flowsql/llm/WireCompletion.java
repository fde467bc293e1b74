package io.flowsql.llm;

import java.util.List;
import java.util.Optional;

/**
 * One successful HTTP answer as read from the wire, before retries and extra calls are merged;
 * {@code finishReasons} holds each choice's finish_reason (null where the server sent none);
 * {@code cachedPromptTokens} the prompt tokens the server took from its prefix cache (0 when not reported);
 * {@code vectors} the embeddings of an embeddings answer (empty for a chat answer, whose choices are then the texts).
 */
record WireCompletion(List<String> choices, List<String> finishReasons, Optional<TokenUsage> reportedUsage,
        String model, boolean simulated, int cachedPromptTokens, List<float[]> vectors) {

    WireCompletion(List<String> choices, List<String> finishReasons, Optional<TokenUsage> reportedUsage,
            String model, boolean simulated, int cachedPromptTokens) {
        this(choices, finishReasons, reportedUsage, model, simulated, cachedPromptTokens, List.of());
    }
}

package io.flowsql.llm;

import java.util.List;
import java.util.Optional;

/**
 * One successful HTTP answer as read from the wire, before retries and extra calls are merged;
 * {@code finishReasons} holds each choice's finish_reason (null where the server sent none);
 * {@code cachedPromptTokens} the prompt tokens the server took from its prefix cache (0 when not reported).
 */
record WireCompletion(List<String> choices, List<String> finishReasons, Optional<TokenUsage> reportedUsage,
        String model, boolean simulated, int cachedPromptTokens) {}

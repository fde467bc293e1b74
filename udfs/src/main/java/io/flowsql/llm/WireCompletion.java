package io.flowsql.llm;

import java.util.List;
import java.util.Optional;

/** One successful HTTP answer as read from the wire, before retries and extra calls are merged. */
record WireCompletion(List<String> choices, Optional<TokenUsage> reportedUsage, String model, boolean simulated,
        int cachedPromptTokens) {}

package io.flowsql.llm;

import java.util.List;

/** What the disk cache keeps of a response: enough to replay it, nothing about timing. */
record CachedAnswer(List<String> choices, int promptTokens, int completionTokens, boolean estimated, String model,
        boolean simulated, List<String> finishReasons) {

    static CachedAnswer of(ChatResponse response) {
        return new CachedAnswer(response.choices(), response.usage().promptTokens(),
                response.usage().completionTokens(), response.usage().estimated(), response.model(),
                response.simulated(), response.finishReasons());
    }

    ChatResponse toResponse() {
        return new ChatResponse(choices, new TokenUsage(promptTokens, completionTokens, estimated), model, simulated,
                0, 0, true, finishReasons);
    }
}

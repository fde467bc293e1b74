package io.flowsql.llm;

import java.util.concurrent.CompletableFuture;

/**
 * A chat-completion model behind any OpenAI-compatible endpoint. Implementations never block the
 * caller and never hang: the future completes with a response or fails with an {@link LlmException}.
 */
public interface LlmClient extends AutoCloseable {

    CompletableFuture<ChatResponse> chat(ChatRequest request);

    @Override
    default void close() {}
}

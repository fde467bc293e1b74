package io.flowsql.llm;

import java.util.concurrent.CompletableFuture;

/**
 * A chat-completion model behind any OpenAI-compatible endpoint. Implementations never block the
 * caller and never hang: the future completes with a response or fails with an {@link LlmException}.
 */
public interface LlmClient extends AutoCloseable {

    CompletableFuture<ChatResponse> chat(ChatRequest request);

    /**
     * Embeds texts through the OpenAI embeddings API ({@code /v1/embeddings}); a client that cannot fails the future
     * with {@link LlmErrorKind#INVALID_REQUEST}.
     */
    default CompletableFuture<EmbeddingResponse> embed(EmbeddingRequest request) {
        return CompletableFuture.failedFuture(new LlmException(LlmErrorKind.INVALID_REQUEST,
                getClass().getSimpleName() + " serves no embeddings (stage " + request.stage() + ")", 0, null));
    }

    /**
     * The model this client would embed texts for {@code use} with (an {@link EmbeddingRequest}'s stage), or null when
     * it cannot tell; callers that embed for two uses at once send one request when both name the same model.
     */
    default String embeddingModelOf(String use) {
        return null;
    }

    @Override
    default void close() {}
}

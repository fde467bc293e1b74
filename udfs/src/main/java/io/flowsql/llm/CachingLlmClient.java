package io.flowsql.llm;

import io.flowsql.config.llm.CacheMode;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Makes a re-run of an evaluation free and repeatable: answers a request seen before from the disk
 * cache and records new answers; identical requests in flight at once share one call.
 */
public final class CachingLlmClient implements LlmClient {
    private final LlmClient delegate;
    private final ResponseCache cache;
    private final CacheMode mode;
    private final Function<ChatRequest, String> modelResolver;
    private final Function<EmbeddingRequest, String> embeddingModelResolver;
    private final Map<String, CompletableFuture<ChatResponse>> inFlight = new ConcurrentHashMap<>();

    /**
     * @param modelResolver the model a request will be sent to (e.g. {@link LlmClientConfig#modelFor}),
     *     so that changing a stage's model changes the key
     */
    public CachingLlmClient(LlmClient delegate, ResponseCache cache, CacheMode mode,
            Function<ChatRequest, String> modelResolver) {
        this(delegate, cache, mode, modelResolver, request -> request.model() == null ? "" : request.model());
    }

    /** @param embeddingModelResolver the model an embeddings request will be sent to (e.g. {@link LlmClientConfig#embeddingModelFor}) */
    public CachingLlmClient(LlmClient delegate, ResponseCache cache, CacheMode mode,
            Function<ChatRequest, String> modelResolver, Function<EmbeddingRequest, String> embeddingModelResolver) {
        this.delegate = delegate;
        this.cache = cache;
        this.mode = mode;
        this.modelResolver = modelResolver;
        this.embeddingModelResolver = embeddingModelResolver;
    }

    /**
     * Embeddings from the disk cache under the key of their model and texts (as the whole list was asked; no sharing
     * of identical calls in flight: the caller's index already embeds each database once).
     */
    @Override
    public CompletableFuture<EmbeddingResponse> embed(EmbeddingRequest request) {
        if (mode == CacheMode.OFF) {
            return delegate.embed(request);
        }
        String key = cache.keyOf(request.withModel(embeddingModelResolver.apply(request)));
        CompletableFuture<EmbeddingResponse> stored = stored(key, "embeddings for " + request.stage(),
                CachedAnswer::toEmbeddings);
        if (stored != null) {
            return stored;
        }
        return delegate.embed(request).thenApply(response -> {
            cache.put(key, CachedAnswer.of(response));
            return response;
        });
    }

    @Override
    public String embeddingModelOf(String use) {
        return delegate.embeddingModelOf(use);
    }

    @Override
    public CompletableFuture<ChatResponse> chat(ChatRequest request) {
        if (mode == CacheMode.OFF) {
            return delegate.chat(request);
        }
        String key = cache.keyOf(request.withModel(modelResolver.apply(request)));
        CompletableFuture<ChatResponse> stored = stored(key, "an answer for stage " + request.stage(),
                CachedAnswer::toResponse);
        if (stored != null) {
            return stored;
        }
        CompletableFuture<ChatResponse> mine = new CompletableFuture<>();
        CompletableFuture<ChatResponse> shared = inFlight.putIfAbsent(key, mine);
        if (shared != null) {
            return shared.copy(); // a copy: one caller cancelling must not fail the others waiting on the same call
        }
        delegate.chat(request).whenComplete((response, error) -> {
            try {
                if (error == null) {
                    cache.put(key, CachedAnswer.of(response));
                }
            } catch (UncheckedIOException e) {
                error = e;
            } finally {
                inFlight.remove(key, mine);
            }
            if (error == null) {
                mine.complete(response);
            } else {
                mine.completeExceptionally(FailureClassifier.ofThrowable(error));
            }
        });
        return mine.copy();
    }

    /**
     * The cached answer under {@code key}; a failed future when the entry cannot be read or a replay-only cache has
     * none; null when the call must be made.
     */
    private <T> CompletableFuture<T> stored(String key, String what, Function<CachedAnswer, T> convert) {
        Optional<CachedAnswer> stored;
        try {
            stored = cache.get(key);
        } catch (UncheckedIOException e) {
            return CompletableFuture.failedFuture(new LlmException(LlmErrorKind.MALFORMED_RESPONSE,
                    e.getMessage(), 0, e));
        }
        if (stored.isPresent()) {
            return CompletableFuture.completedFuture(convert.apply(stored.get()));
        }
        if (mode == CacheMode.READ_ONLY) {
            return CompletableFuture.failedFuture(new LlmException(LlmErrorKind.INVALID_REQUEST,
                    "replay-only cache has no " + what + " (key " + key + ")", 0, null));
        }
        return null;
    }

    @Override
    public void close() {
        delegate.close();
    }
}

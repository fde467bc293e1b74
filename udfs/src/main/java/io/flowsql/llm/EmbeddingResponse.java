package io.flowsql.llm;

import java.util.List;

/**
 * One vector per input, in the order of the request; the usage (prompt tokens only), the model that answered, whether
 * it was simulated, the call's latency and retries over all its batches, and whether it came from a cache.
 */
public record EmbeddingResponse(List<float[]> vectors, TokenUsage usage, String model, boolean simulated,
        long latencyMillis, int retries, boolean cached) {

    public EmbeddingResponse {
        vectors = List.copyOf(vectors);
    }

    /** The same vectors as a cache or journal hands them back: no latency, no retries. */
    public EmbeddingResponse asCached() {
        return new EmbeddingResponse(vectors, usage, model, simulated, 0, 0, true);
    }
}

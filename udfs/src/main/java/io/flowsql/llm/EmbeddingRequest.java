package io.flowsql.llm;

import java.util.List;
import java.util.Objects;

/**
 * Texts to embed through {@code /v1/embeddings}: the use they are for ({@code stage}, e.g.
 * {@code opensearch.extract.columns}, which picks the model as a chat stage's name does), the texts in order, and the
 * model when the caller names one (else the configured embedding model of that use).
 */
public record EmbeddingRequest(String stage, List<String> inputs, String model) {

    public EmbeddingRequest {
        Objects.requireNonNull(stage, "stage");
        inputs = List.copyOf(inputs);
    }

    public static EmbeddingRequest of(String stage, List<String> inputs) {
        return new EmbeddingRequest(stage, inputs, null);
    }

    public EmbeddingRequest withModel(String value) {
        return new EmbeddingRequest(stage, inputs, value);
    }

    public EmbeddingRequest withInputs(List<String> value) {
        return new EmbeddingRequest(stage, value, model);
    }
}

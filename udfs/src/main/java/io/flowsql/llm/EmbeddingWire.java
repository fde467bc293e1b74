package io.flowsql.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The OpenAI embeddings body both ways: {@code {"model", "input": [...], "encoding_format": "float"}} out, and
 * {@code data[].embedding} (put back in input order by {@code index}), {@code usage.prompt_tokens} and {@code model}
 * in. An answer that is not JSON, lacks a vector for some input or mixes dimensions is MALFORMED_RESPONSE (retried).
 */
final class EmbeddingWire {
    private final ObjectMapper json;

    EmbeddingWire(ObjectMapper json) {
        this.json = json;
    }

    ObjectNode toJson(EmbeddingRequest request) {
        ObjectNode body = json.createObjectNode();
        body.put("model", request.model());
        ArrayNode input = body.putArray("input");
        request.inputs().forEach(input::add);
        body.put("encoding_format", "float");
        return body;
    }

    byte[] encode(EmbeddingRequest request) {
        try {
            return json.writeValueAsBytes(toJson(request));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    WireCompletion decode(byte[] body, EmbeddingRequest request, boolean simulatedHeader) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings body is not JSON: " + e.getMessage());
        }
        if (root == null || !root.path("data").isArray()) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer has no data list");
        }
        float[][] vectors = new float[request.inputs().size()][];
        int position = 0;
        for (JsonNode item : root.path("data")) {
            int index = item.path("index").asInt(position++);
            JsonNode embedding = item.path("embedding");
            if (index < 0 || index >= vectors.length || !embedding.isArray() || embedding.isEmpty()) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer has an unusable item at "
                        + index + " for " + vectors.length + " inputs");
            }
            // llama.cpp answers a pooled vector per input; a server that answers per token ([[...]]) is refused
            float[] vector = new float[embedding.size()];
            for (int i = 0; i < vector.length; i++) {
                if (!embedding.get(i).isNumber()) {
                    throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embedding " + index
                            + " is not a list of numbers (is the server's pooling 'none'?)");
                }
                vector[i] = (float) embedding.get(i).asDouble();
            }
            vectors[index] = vector;
        }
        for (int i = 0; i < vectors.length; i++) {
            if (vectors[i] == null || vectors[0] == null || vectors[i].length != vectors[0].length) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer lacks a vector of "
                        + (vectors[0] == null ? 0 : vectors[0].length) + " numbers for input " + i);
            }
        }
        JsonNode usage = root.path("usage");
        Optional<TokenUsage> reported = usage.has("prompt_tokens")
                ? Optional.of(new TokenUsage(usage.path("prompt_tokens").asInt(), 0, false)) : Optional.empty();
        String model = root.path("model").asText(request.model());
        boolean simulated = simulatedHeader || model.startsWith("simulated/");
        return new WireCompletion(List.of(), List.of(), reported, model, simulated, 0,
                new ArrayList<>(Arrays.asList(vectors)));
    }
}

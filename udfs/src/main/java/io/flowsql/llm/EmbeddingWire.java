package io.flowsql.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.config.llm.EmbeddingEncoding;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The OpenAI embeddings body both ways: {@code {"model", "input": [...], "encoding_format": "base64"}} (or
 * {@code "float"}, llm.embedding-encoding) out, and {@code data[].embedding} (put back in input order by
 * {@code index}) as a list of numbers or a base64 string of little-endian 32-bit floats, whichever the server wrote,
 * {@code usage.prompt_tokens} and {@code model} in. An answer that is not JSON, lacks a vector for some input or mixes
 * dimensions is MALFORMED_RESPONSE (retried).
 */
final class EmbeddingWire {
    private final ObjectMapper json;
    private final EmbeddingEncoding encoding;

    EmbeddingWire(ObjectMapper json, EmbeddingEncoding encoding) {
        this.json = json;
        this.encoding = encoding;
    }

    /**
     * The body in the float form whatever this wire sends: what a response cache keys on, so a cache written before
     * base64 (or with the other setting) still answers; the vectors are the same either way.
     */
    ObjectNode toJson(EmbeddingRequest request) {
        return toJson(request, EmbeddingEncoding.FLOAT);
    }

    private ObjectNode toJson(EmbeddingRequest request, EmbeddingEncoding format) {
        ObjectNode body = json.createObjectNode();
        body.put("model", request.model());
        ArrayNode input = body.putArray("input");
        request.inputs().forEach(input::add);
        body.put("encoding_format", format.wireName());
        return body;
    }

    byte[] encode(EmbeddingRequest request) {
        try {
            return json.writeValueAsBytes(toJson(request, encoding));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the answer with Jackson's streaming parser, straight into float arrays: a vector of a few hundred numbers
     * read as a tree first (a node per number, then each converted) was most of the LLM client's CPU in the job's
     * profile (issue 41).
     */
    WireCompletion decode(byte[] body, EmbeddingRequest request, boolean simulatedHeader) {
        Answer answer;
        try (JsonParser parser = json.getFactory().createParser(body)) {
            parser.enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER.mappedFeature());
            answer = readAnswer(parser, request.inputs().size());
        } catch (IOException e) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings body is not JSON: " + e.getMessage());
        }
        float[][] vectors = answer.vectors;
        for (int i = 0; i < vectors.length; i++) {
            if (vectors[i] == null || vectors[0] == null || vectors[i].length != vectors[0].length) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer lacks a vector of "
                        + (vectors[0] == null ? 0 : vectors[0].length) + " numbers for input " + i);
            }
        }
        Optional<TokenUsage> reported = answer.promptTokens == null ? Optional.empty()
                : Optional.of(new TokenUsage(answer.promptTokens, 0, false));
        String model = answer.model == null ? request.model() : answer.model;
        boolean simulated = simulatedHeader || model.startsWith("simulated/");
        return new WireCompletion(List.of(), List.of(), reported, model, simulated, 0,
                new ArrayList<>(Arrays.asList(vectors)));
    }

    /** What the answer's top level holds: the vectors by input, the prompt tokens and the model, if given. */
    private static final class Answer {
        float[][] vectors;
        Integer promptTokens;
        String model;
    }

    private static Answer readAnswer(JsonParser parser, int inputs) throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer has no data list");
        }
        Answer answer = new Answer();
        boolean data = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "data" -> {
                    if (value != JsonToken.START_ARRAY) {
                        throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer has no data list");
                    }
                    data = true;
                    answer.vectors = readData(parser, inputs);
                }
                case "usage" -> answer.promptTokens = readPromptTokens(parser);
                case "model" -> answer.model = value.isScalarValue() && value != JsonToken.VALUE_NULL
                        ? parser.getValueAsString() : null;
                default -> parser.skipChildren();
            }
        }
        if (!data) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer has no data list");
        }
        return answer;
    }

    /** {@code data}: one item per input, put at its {@code index} (its place in the list when it has none). */
    private static float[][] readData(JsonParser parser, int inputs) throws IOException {
        float[][] vectors = new float[inputs][];
        int position = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            int index = position++;
            float[] vector = null;
            boolean unusable = false;
            if (parser.currentToken() == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (field.equals("index")) {
                        index = parser.getValueAsInt(index);
                    } else if (field.equals("embedding") && value == JsonToken.START_ARRAY) {
                        vector = readVector(parser, index);
                    } else if (field.equals("embedding") && value == JsonToken.VALUE_STRING) {
                        vector = readBase64Vector(parser.getText(), index);
                    } else {
                        parser.skipChildren();
                    }
                }
            } else {
                parser.skipChildren();
                unusable = true;
            }
            if (unusable || index < 0 || index >= vectors.length || vector == null || vector.length == 0) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embeddings answer has an unusable item at "
                        + index + " for " + vectors.length + " inputs");
            }
            vectors[index] = vector;
        }
        return vectors;
    }

    /** One pooled vector; llama.cpp answers one per input, and a server that answers per token ([[...]]) is refused. */
    private static float[] readVector(JsonParser parser, int index) throws IOException {
        float[] vector = new float[256];
        int size = 0;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token != JsonToken.VALUE_NUMBER_FLOAT && token != JsonToken.VALUE_NUMBER_INT) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embedding " + index
                        + " is not a list of numbers (is the server's pooling 'none'?)");
            }
            if (size == vector.length) {
                vector = Arrays.copyOf(vector, 2 * size);
            }
            vector[size++] = (float) parser.getDoubleValue();
        }
        return Arrays.copyOf(vector, size);
    }

    /** A vector written as base64 of little-endian 32-bit floats ({@code encoding_format: "base64"}). */
    private static float[] readBase64Vector(String text, int index) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embedding " + index + " is not base64: " + e.getMessage());
        }
        if (bytes.length % Float.BYTES != 0) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "embedding " + index + " has " + bytes.length
                    + " bytes, not a whole number of 32-bit floats");
        }
        float[] vector = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }

    private static Integer readPromptTokens(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        Integer tokens = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            if (field.equals("prompt_tokens")) {
                tokens = parser.getValueAsInt(0);
            }
            parser.skipChildren();
        }
        return tokens;
    }
}

package io.flowsql.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a chat-completions body; a body that is not JSON or has no usable choice is a
 * MALFORMED_RESPONSE, which the retry loop treats as transient.
 *
 * <p>The {@code choices} list is read with Jackson's streaming parser: each choice's {@code message.content} and
 * {@code finish_reason} straight into strings, whatever else a choice or its message carries (a reasoning text, log
 * probabilities) skipped without being built. A reply of 21 samples read as a tree first was 4 % of the job's CPU in
 * issue 41's profile. The few other fields ({@code model}, {@code usage}, {@code timings},
 * {@code system_fingerprint}) are read as small trees. Where a key repeats, the last one counts, as in a tree.
 */
final class ChatWireDecoder {
    static final String SIMULATED_FINGERPRINT = "flowsql-simulated";
    private final ObjectMapper json;

    ChatWireDecoder(ObjectMapper json) {
        this.json = json;
    }

    WireCompletion decode(byte[] body, String requestedModel, boolean simulatedHeader) {
        Top top;
        try (JsonParser parser = json.getFactory().createParser(body)) {
            top = readTop(parser);
        } catch (IOException e) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response body is not JSON: " + e.getMessage());
        }
        if (top == null || top.choices == null) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response has no choices list");
        }
        if (top.choices.isEmpty()) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response has no choice with text content");
        }
        String model = top.model.asText(requestedModel);
        boolean simulated = simulatedHeader
                || model.startsWith("simulated/")
                || SIMULATED_FINGERPRINT.equals(top.fingerprint.asText());
        return new WireCompletion(top.choices, top.finishReasons, usageOf(top.usage), model, simulated,
                cachedOf(top.usage, top.timings));
    }

    /** The top level's fields this decoder reads; {@code choices} null when the body has no list of choices. */
    private static final class Top {
        List<String> choices;
        List<String> finishReasons;
        JsonNode model = MissingNode.getInstance();
        JsonNode fingerprint = MissingNode.getInstance();
        JsonNode usage = MissingNode.getInstance();
        JsonNode timings = MissingNode.getInstance();
    }

    /** The body's top-level object, or null when the body is empty or its value is not an object. */
    private Top readTop(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            return null;
        }
        if (first != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        Top top = new Top();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "choices" -> {
                    if (value == JsonToken.START_ARRAY) {
                        top.choices = new ArrayList<>();
                        top.finishReasons = new ArrayList<>();
                        readChoices(parser, top);
                    } else {
                        parser.skipChildren();
                        top.choices = null;
                        top.finishReasons = null;
                    }
                }
                case "model" -> top.model = tree(parser);
                case "system_fingerprint" -> top.fingerprint = tree(parser);
                case "usage" -> top.usage = tree(parser);
                case "timings" -> top.timings = tree(parser);
                default -> parser.skipChildren();
            }
        }
        return top;
    }

    private JsonNode tree(JsonParser parser) throws IOException {
        JsonNode node = json.readTree(parser);
        return node == null ? MissingNode.getInstance() : node;
    }

    /** Each item of {@code choices}: kept when its message's content is a string, with its finish reason if a string. */
    private static void readChoices(JsonParser parser, Top top) throws IOException {
        for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
            if (item != JsonToken.START_OBJECT) {
                parser.skipChildren();
                continue;
            }
            String content = null;
            String reason = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("message")) {
                    content = value == JsonToken.START_OBJECT ? readContent(parser) : skipped(parser);
                } else if (field.equals("finish_reason")) {
                    reason = value == JsonToken.VALUE_STRING ? parser.getText() : skipped(parser);
                } else {
                    parser.skipChildren();
                }
            }
            if (content != null) {
                top.choices.add(content);
                top.finishReasons.add(reason);
            }
        }
    }

    /** A message object's {@code content} when it is a string (the last one given), else null. */
    private static String readContent(JsonParser parser) throws IOException {
        String content = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("content")) {
                content = value == JsonToken.VALUE_STRING ? parser.getText() : skipped(parser);
            } else {
                parser.skipChildren();
            }
        }
        return content;
    }

    private static String skipped(JsonParser parser) throws IOException {
        parser.skipChildren();
        return null;
    }

    /** Prompt tokens served from the server's prefix cache: OpenAI/vLLM usage details, else llama.cpp's timings. */
    private static int cachedOf(JsonNode usage, JsonNode timings) {
        JsonNode details = usage.path("prompt_tokens_details").path("cached_tokens");
        return details.isNumber() ? details.asInt() : timings.path("cache_n").asInt(0);
    }

    private static Optional<TokenUsage> usageOf(JsonNode usage) {
        if (!usage.isObject() || !usage.has("prompt_tokens")) {
            return Optional.empty();
        }
        return Optional.of(new TokenUsage(usage.path("prompt_tokens").asInt(), usage.path("completion_tokens").asInt(),
                false));
    }
}

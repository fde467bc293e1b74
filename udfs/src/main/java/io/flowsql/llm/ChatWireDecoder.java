package io.flowsql.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a chat-completions body; a body that is not JSON or has no usable choice is a
 * MALFORMED_RESPONSE, which the retry loop treats as transient.
 */
final class ChatWireDecoder {
    static final String SIMULATED_FINGERPRINT = "flowsql-simulated";
    private final ObjectMapper json;

    ChatWireDecoder(ObjectMapper json) {
        this.json = json;
    }

    WireCompletion decode(byte[] body, String requestedModel, boolean simulatedHeader) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response body is not JSON: " + e.getMessage());
        }
        if (root == null || !root.path("choices").isArray()) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response has no choices list");
        }
        List<String> choices = new ArrayList<>();
        List<String> finishReasons = new ArrayList<>();
        for (JsonNode choice : root.path("choices")) {
            JsonNode content = choice.path("message").path("content");
            if (content.isTextual()) {
                choices.add(content.asText());
                JsonNode reason = choice.path("finish_reason");
                finishReasons.add(reason.isTextual() ? reason.asText() : null);
            }
        }
        if (choices.isEmpty()) {
            throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response has no choice with text content");
        }
        String model = root.path("model").asText(requestedModel);
        boolean simulated = simulatedHeader
                || model.startsWith("simulated/")
                || SIMULATED_FINGERPRINT.equals(root.path("system_fingerprint").asText());
        return new WireCompletion(choices, finishReasons, usageOf(root.path("usage")), model, simulated, cachedOf(root));
    }

    /** Prompt tokens served from the server's prefix cache: OpenAI/vLLM usage details, else llama.cpp's timings. */
    private static int cachedOf(JsonNode root) {
        JsonNode details = root.path("usage").path("prompt_tokens_details").path("cached_tokens");
        return details.isNumber() ? details.asInt() : root.path("timings").path("cache_n").asInt(0);
    }

    private static Optional<TokenUsage> usageOf(JsonNode usage) {
        if (!usage.isObject() || !usage.has("prompt_tokens")) {
            return Optional.empty();
        }
        return Optional.of(new TokenUsage(usage.path("prompt_tokens").asInt(), usage.path("completion_tokens").asInt(),
                false));
    }
}

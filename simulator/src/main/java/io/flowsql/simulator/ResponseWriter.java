package io.flowsql.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes chat-completion bodies in the configured dialect, always marked as simulated in the
 * model name, the system fingerprint and a {@code simulated} field.
 */
final class ResponseWriter {
    static final String FINGERPRINT = "flowsql-simulated";
    private final ObjectMapper json;
    private final Dialect dialect;
    private final AtomicLong ids = new AtomicLong();

    ResponseWriter(ObjectMapper json, Dialect dialect) {
        this.json = json;
        this.dialect = dialect;
    }

    /** A completion body; {@code tokens} are this call's counts, {@code millis} the simulated model time. */
    ObjectNode completion(String requestedModel, List<String> choices, String finishReason, TokenCounts tokens,
            long millis) {
        int promptTokens = (int) tokens.promptTokens();
        int completionTokens = (int) tokens.completionTokens();
        ObjectNode root = json.createObjectNode();
        root.put("id", "chatcmpl-simulated-" + ids.incrementAndGet());
        root.put("object", "chat.completion");
        root.put("created", System.currentTimeMillis() / 1000);
        root.put("model", "simulated/" + requestedModel);
        root.put("system_fingerprint", FINGERPRINT);
        root.put("simulated", true);
        ArrayNode array = root.putArray("choices");
        for (int i = 0; i < choices.size(); i++) {
            ObjectNode choice = array.addObject();
            choice.put("index", i);
            ObjectNode message = choice.putObject("message");
            message.put("role", "assistant");
            message.put("content", choices.get(i));
            choice.put("finish_reason", finishReason);
        }
        if (dialect.reportsUsage()) {
            ObjectNode usage = root.putObject("usage");
            usage.put("prompt_tokens", promptTokens);
            usage.put("completion_tokens", completionTokens);
            usage.put("total_tokens", promptTokens + completionTokens);
            usage.putObject("prompt_tokens_details").put("cached_tokens", tokens.cachedPromptTokens());
        }
        if (dialect.reportsTimings()) {
            // llama.cpp's server: cache_n prompt tokens reused from the cache, prompt_n evaluated, predicted_n generated.
            ObjectNode timings = root.putObject("timings");
            timings.put("cache_n", tokens.cachedPromptTokens());
            timings.put("prompt_n", promptTokens - tokens.cachedPromptTokens());
            timings.put("predicted_n", completionTokens);
            timings.put("predicted_ms", (double) millis);
        }
        return root;
    }

    ObjectNode error(String type, String message) {
        ObjectNode root = json.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("type", type);
        error.put("message", "[simulated] " + message);
        root.put("simulated", true);
        return root;
    }

    ObjectNode models(List<String> names) {
        ObjectNode root = json.createObjectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (String name : names) {
            ObjectNode model = data.addObject();
            model.put("id", "simulated/" + name);
            model.put("object", "model");
            model.put("owned_by", FINGERPRINT);
        }
        return root;
    }
}

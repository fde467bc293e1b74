package io.flowsql.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads an OpenAI chat-completion request body into a {@link SimulatedRequest}, as the dialect sees it. */
final class RequestReader {
    private final ObjectMapper json;
    private final Dialect dialect;

    RequestReader(ObjectMapper json, Dialect dialect) {
        this.json = json;
        this.dialect = dialect;
    }

    SimulatedRequest read(byte[] body) throws IOException {
        JsonNode root = json.readTree(body);
        if (root == null || !root.path("messages").isArray() || root.path("messages").isEmpty()) {
            throw new IOException("a chat completion request needs a non-empty messages list");
        }
        List<SimulatedMessage> messages = new ArrayList<>();
        for (JsonNode message : root.path("messages")) {
            messages.add(new SimulatedMessage(message.path("role").asText("user"), contentOf(message.path("content"))));
        }
        boolean json = "json_object".equals(root.path("response_format").path("type").asText())
                || "json_schema".equals(root.path("response_format").path("type").asText());
        return new SimulatedRequest(
                root.path("model").asText("default"),
                messages,
                root.path("n").asInt(1),
                root.hasNonNull("temperature") ? root.get("temperature").asDouble() : null,
                root.hasNonNull("seed") ? root.get("seed").asLong() : null,
                root.hasNonNull("max_tokens") ? root.get("max_tokens").asInt() : null,
                json && dialect.honoursResponseFormat());
    }

    /** Content is a string, or a list of parts of which the text parts count. */
    private static String contentOf(JsonNode content) {
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            content.forEach(part -> text.append(part.path("text").asText("")));
            return text.toString();
        }
        return content.asText("");
    }
}

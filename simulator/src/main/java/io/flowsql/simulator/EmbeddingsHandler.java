package io.flowsql.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.flowsql.simulator.embed.NgramEmbedder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves POST /v1/embeddings as OpenAI does ({@code input} a string or a list of strings; {@code data[]} with
 * {@code index} and {@code embedding}, a list of numbers or, with {@code encoding_format: "base64"}, a base64 string
 * of little-endian floats; {@code usage.prompt_tokens}), with {@link NgramEmbedder}'s deterministic
 * vectors, the model named {@code simulated/<model>} and the simulated header. Needs no slot: embedding is cheap.
 * The configured faults apply as far as an embeddings answer can show them (a hang or a cut text is answered).
 */
final class EmbeddingsHandler implements HttpHandler {
    private final ObjectMapper json;
    private final FaultPlan faults;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong texts = new AtomicLong();

    /** Injects the configured faults that an HTTP status or a broken body shows (429, 500, 503, not JSON). */
    EmbeddingsHandler(ObjectMapper json, SimulatorConfig config) {
        this.json = json;
        this.faults = new FaultPlan(config.faultRates(), config.scriptedFaults(), config.seed() + 1);
    }

    long requests() {
        return requests.get();
    }

    long texts() {
        return texts.get();
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().add("X-FlowSQL-Simulated", "true");
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            JsonNode body;
            try {
                body = json.readTree(exchange.getRequestBody().readAllBytes());
            } catch (IOException e) {
                send(exchange, 400, error("body is not JSON: " + e.getMessage()));
                return;
            }
            List<String> inputs = new ArrayList<>();
            JsonNode input = body == null ? null : body.get("input");
            if (input != null && input.isTextual()) {
                inputs.add(input.asText());
            } else if (input != null && input.isArray()) {
                input.forEach(item -> inputs.add(item.asText()));
            }
            if (inputs.isEmpty()) {
                send(exchange, 400, error("'input' must be a string or a non-empty list of strings"));
                return;
            }
            requests.incrementAndGet();
            Fault fault = faults.next();
            switch (fault) {
                case RATE_LIMITED -> {
                    exchange.getResponseHeaders().add("Retry-After", "0");
                    send(exchange, 429, error("rate limited (simulated)"));
                    return;
                }
                case SERVER_ERROR -> {
                    send(exchange, 500, error("server error (simulated)"));
                    return;
                }
                case UNAVAILABLE -> {
                    send(exchange, 503, error("unavailable (simulated)"));
                    return;
                }
                case MALFORMED_JSON -> {
                    byte[] broken = "{\"data\": [".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, broken.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(broken);
                    }
                    return;
                }
                default -> { }
            }
            texts.addAndGet(inputs.size());
            ObjectNode root = json.createObjectNode();
            root.put("object", "list");
            root.put("model", "simulated/" + body.path("model").asText("default"));
            ArrayNode data = root.putArray("data");
            int tokens = 0;
            boolean base64 = "base64".equals(body.path("encoding_format").asText("float"));
            for (int i = 0; i < inputs.size(); i++) {
                ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
                float[] embedding = NgramEmbedder.embed(inputs.get(i));
                if (base64) {
                    item.put("embedding", base64(embedding));
                } else {
                    ArrayNode vector = item.putArray("embedding");
                    for (float v : embedding) {
                        vector.add(v);
                    }
                }
                tokens += Math.max(1, (inputs.get(i).length() + 3) / 4);
            }
            root.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
            send(exchange, 200, root);
        }
    }

    /** OpenAI's {@code encoding_format: "base64"}: the vector's little-endian 32-bit floats, base64-encoded. */
    static String base64(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    private ObjectNode error(String message) {
        ObjectNode root = json.createObjectNode();
        root.putObject("error").put("type", "invalid_request_error").put("message", message);
        return root;
    }

    private void send(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = json.writeValueAsBytes(body);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}

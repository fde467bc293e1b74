package io.flowsql.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SimulatedLlmServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static String body(String task, String user, int n) {
        return "{\"model\":\"small\",\"n\":" + n + ",\"messages\":[{\"role\":\"system\",\"content\":\"### Task: " + task
                + "\\nYou are a test.\"},{\"role\":\"user\",\"content\":\"" + user + "\"}]}";
    }

    private HttpResponse<String> post(SimulatedLlmServer server, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void embeddingsComeAsNumbersOrAsBase64LittleEndianFloats() throws Exception {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().port(0).build())) {
            float[] expected = io.flowsql.simulator.embed.NgramEmbedder.embed("singer name");
            for (String format : new String[] {"float", "base64"}) {
                JsonNode vector = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/embeddings"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"e\",\"input\":[\"singer name\"],"
                                + "\"encoding_format\":\"" + format + "\"}")).build(),
                        HttpResponse.BodyHandlers.ofString()).body()).path("data").path(0).path("embedding");
                float[] read = new float[expected.length];
                if (format.equals("base64")) {
                    assertThat(vector.isTextual()).as("base64: one string").isTrue();
                    java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder().decode(vector.asText()))
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(read);
                } else {
                    assertThat(vector.isArray()).as("float: a list of numbers").isTrue();
                    for (int i = 0; i < read.length; i++) {
                        read[i] = vector.get(i).floatValue();
                    }
                }
                assertThat(read).as(format).containsExactly(expected);
            }
        }
    }

    @Test
    void answersAreMarkedSimulatedAndCounted() throws Exception {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build())) {
            assertThat(server.baseUrl()).matches("http://127\\.0\\.0\\.1:\\d+/v1");
            HttpResponse<String> response = post(server, body("anything", "Question: hi", 1));
            JsonNode root = JSON.readTree(response.body());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("X-FlowSQL-Simulated")).contains("true");
            assertThat(root.path("model").asText()).isEqualTo("simulated/small");
            assertThat(root.path("system_fingerprint").asText()).isEqualTo("flowsql-simulated");
            assertThat(root.path("choices").get(0).path("message").path("content").asText()).contains("simulated");
            assertThat(root.path("usage").path("prompt_tokens").asInt()).isPositive();
            assertThat(server.requestCount()).isEqualTo(1);
            HttpResponse<String> models = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/models"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(JSON.readTree(models.body()).path("data").get(0).path("id").asText()).startsWith("simulated/");
        }
    }

    @Test
    void responderIsChosenByTaskAndReadsLabelledFields() throws Exception {
        Responder echo = (request, context) -> Optional.of(List.of(
                request.task() + "|" + request.field("Database").orElse("?") + "|" + request.field("Question").orElse("?")));
        try (SimulatedLlmServer server = SimulatedLlmServer.start(
                SimulatorConfig.builder().responder("mmsql.detect", echo).build())) {
            JsonNode root = JSON.readTree(post(server, body("mmsql.detect", "Database: concert_singer\\nQuestion: How many singers?", 1)).body());
            assertThat(root.path("choices").get(0).path("message").path("content").asText())
                    .isEqualTo("mmsql.detect|concert_singer|How many singers?");
            JsonNode other = JSON.readTree(post(server, body("other.task", "Question: x", 1)).body());
            assertThat(other.path("choices").get(0).path("message").path("content").asText()).contains("no responder");
            assertThat(server.requests().get(0).request().lastUserMessage()).contains("concert_singer");
        }
    }

    @Test
    void slotsQueueRequestsBeyondThem() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().slots(2).latency(LatencyModel.fixed(200)).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config)) {
            long start = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(http.sendAsync(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(body("t", "q", 1))).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            calls.forEach(CompletableFuture::join);
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMillis).isGreaterThanOrEqualTo(600);
            assertThat(server.maxBusySlots()).isEqualTo(2);
            assertThat(server.maxConcurrentRequests()).isGreaterThan(2);
        }
    }

    @Test
    void latencyGrowsWithPromptLength() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().latency(new LatencyModel(0, 1.0, 0, 0)).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config)) {
            // warm-up: the first call pays class loading and the JIT (hundreds of ms with a test JVM beside this one)
            post(server, body("t", "q", 1));
            long shortStart = System.nanoTime();
            post(server, body("t", "q", 1));
            long shortMillis = (System.nanoTime() - shortStart) / 1_000_000;
            long longStart = System.nanoTime();
            post(server, body("t", "x".repeat(2000), 1));
            long longMillis = (System.nanoTime() - longStart) / 1_000_000;
            assertThat(longMillis).isGreaterThanOrEqualTo(500).isGreaterThan(shortMillis + 400);
        }
    }

    @Test
    void eachFaultLooksLikeTheRealThing() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().retryAfterSeconds(7)
                .scriptedFaults(Fault.RATE_LIMITED, Fault.SERVER_ERROR, Fault.UNAVAILABLE, Fault.MALFORMED_JSON,
                        Fault.TRUNCATED_CONTENT, Fault.EMPTY_CHOICES, Fault.NONE)
                .build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config)) {
            HttpResponse<String> limited = post(server, body("t", "q", 1));
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Retry-After")).contains("7");
            assertThat(post(server, body("t", "q", 1)).statusCode()).isEqualTo(500);
            assertThat(post(server, body("t", "q", 1)).statusCode()).isEqualTo(503);
            HttpResponse<String> malformed = post(server, body("t", "q", 1));
            assertThat(malformed.statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> JSON.readTree(malformed.body())).isInstanceOf(Exception.class);
            JsonNode truncated = JSON.readTree(post(server, body("t", "q", 1)).body());
            assertThat(truncated.path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
            JsonNode whole = JSON.readTree(post(server, body("t", "q", 1)).body());
            assertThat(whole.path("choices")).isEmpty();
            JsonNode normal = JSON.readTree(post(server, body("t", "q", 1)).body());
            assertThat(truncated.path("choices").get(0).path("message").path("content").asText().length())
                    .isLessThan(normal.path("choices").get(0).path("message").path("content").asText().length());
            assertThat(server.requests()).extracting(RecordedRequest::fault).containsExactly(Fault.RATE_LIMITED,
                    Fault.SERVER_ERROR, Fault.UNAVAILABLE, Fault.MALFORMED_JSON, Fault.TRUNCATED_CONTENT,
                    Fault.EMPTY_CHOICES, Fault.NONE);
        }
    }

    @Test
    void aHangOutlastsTheClientsPatience() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().scriptedFaults(Fault.HANG).hangMillis(3_000).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config)) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .timeout(Duration.ofMillis(300)).POST(HttpRequest.BodyPublishers.ofString(body("t", "q", 1))).build();
            assertThatThrownBy(() -> http.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(HttpTimeoutException.class);
        }
    }

    @Test
    void faultRatesFollowTheSeed() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().faultRate(Fault.UNAVAILABLE, 0.3).seed(7).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config)) {
            long unavailable = IntStream.range(0, 200).filter(i -> {
                try {
                    return post(server, body("t", "q", 1)).statusCode() == 503;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).count();
            assertThat(unavailable).isBetween(40L, 80L);
        }
    }

    @Test
    void dialectsDifferOnTheWire() throws Exception {
        try (SimulatedLlmServer openai = SimulatedLlmServer.start(SimulatorConfig.builder().build());
                SimulatedLlmServer llama = SimulatedLlmServer.start(
                        SimulatorConfig.builder().dialect(Dialect.LLAMA_CPP).build())) {
            JsonNode full = JSON.readTree(post(openai, body("t", "q", 3)).body());
            JsonNode bare = JSON.readTree(post(llama, body("t", "q", 3)).body());
            assertThat(full.path("choices")).hasSize(3);
            assertThat(full.has("usage")).isTrue();
            assertThat(bare.path("choices")).hasSize(1);
            assertThat(bare.has("usage")).isFalse();
            assertThat(bare.path("model").asText()).startsWith("simulated/");
        }
    }

    @Test
    void wrongApiKeyIsRefused() throws Exception {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().requiredApiKey("k1").build())) {
            assertThat(post(server, body("t", "q", 1)).statusCode()).isEqualTo(401);
            HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .header("Authorization", "Bearer k1").POST(HttpRequest.BodyPublishers.ofString(body("t", "q", 1)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void freshDrawsNeverRepeatAnSqlAnswer() throws Exception {
        Responder sql = (request, context) -> Optional.of(List.of("#SQL:\n```sql\nSELECT name FROM singer;\n```"));
        try (SimulatedLlmServer server = SimulatedLlmServer.start(
                SimulatorConfig.builder().responder("gen", sql).freshDraws(true).build())) {
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                JsonNode root = JSON.readTree(post(server, body("gen", "Question: same", 2)).body());
                root.path("choices").forEach(c -> texts.add(c.path("message").path("content").asText()));
            }
            assertThat(texts).hasSize(4).doesNotHaveDuplicates()
                    .allMatch(t -> t.matches("(?s)#SQL:\n```sql\nSELECT \\* FROM \\(SELECT name FROM singer\\) AS draw_\\d+\n```"));
            assertThat(texts.stream().flatMap(t -> FreshDraws.drawsIn(t).stream()).toList()).containsExactly(1L, 2L, 3L, 4L);
        }
        Responder json = (request, context) -> Optional.of(List.of("{\"reason\": \"r\", \"sql\": \"SELECT 1;\"}"));
        try (SimulatedLlmServer server = SimulatedLlmServer.start(
                SimulatorConfig.builder().responder("gen", json).freshDraws(true).build())) {
            String reply = JSON.readTree(post(server, body("gen", "Question: same", 1)).body())
                    .path("choices").get(0).path("message").path("content").asText();
            assertThat(JSON.readTree(reply).path("sql").asText()).isEqualTo("SELECT * FROM (SELECT 1) AS draw_1");
        }
        try (SimulatedLlmServer plain = SimulatedLlmServer.start(SimulatorConfig.builder().responder("gen", sql).build())) {
            String first = JSON.readTree(post(plain, body("gen", "Question: same", 1)).body()).toString();
            assertThat(first).doesNotContain("draw_");
        }
    }
}

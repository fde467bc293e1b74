package io.flowsql.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The modelled prefix cache: what is reused, what it saves in latency, how it is reported per dialect, and its bound. */
class PrefixCacheTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMA = "Database: concert_singer\nSchema:\n"
            + "# Table: singer\n(Singer_ID, number, primary key)\n(Name, text, examples: ['Joe Sharp'])\n".repeat(20)
            + "-- end of schema --\n";
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aSharedPrefixIsReusedAndCostsNoPrefillLatency() throws Exception {
        try (SimulatedLlmServer server = halfMillisecondPerPromptToken(Dialect.OPENAI)) {
            JsonNode first = post(server, "sqlfix.review", SCHEMA + "Question: How many singers are there?");
            JsonNode second = post(server, "sqlfix.review", SCHEMA + "Question: What is the name of the oldest singer?");
            JsonNode otherTask = post(server, "mmsql.detect", SCHEMA + "Question: How many singers are there?");

            int prompt = second.path("usage").path("prompt_tokens").asInt();
            int cached = second.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt();
            // the system message, the database block and "Question: " (plus the template's framing) are the same
            int sharedTokens = ("### Task: sqlfix.review\nReview it.".length() + SCHEMA.length() + "Question: ".length()) / 4;
            assertThat(first.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
            assertThat(cached % PrefixCache.BLOCK_TOKENS).isZero();
            assertThat(cached).isBetween(sharedTokens - 2 * PrefixCache.BLOCK_TOKENS, sharedTokens + PrefixCache.BLOCK_TOKENS).isLessThan(prompt);
            // The system message comes first and names the task: another task shares nothing.
            assertThat(otherTask.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();

            TokenCounts counts = server.tokenCounts();
            assertThat(counts.completions()).isEqualTo(3);
            assertThat(counts.cachedPromptTokens()).isEqualTo(cached);
            assertThat(counts.cachedShare()).isGreaterThan(0.2).isLessThan(0.5);
            server.clearRequests();
            assertThat(server.tokenCounts().promptTokens()).isZero();
        }
    }

    @Test
    void llamaCppReportsTimingsAndTheSavedPrefill() throws Exception {
        try (SimulatedLlmServer server = halfMillisecondPerPromptToken(Dialect.LLAMA_CPP)) {
            JsonNode first = post(server, "t", SCHEMA + "Question: a");
            JsonNode second = post(server, "t", SCHEMA + "Question: b");
            assertThat(first.has("usage")).isFalse();
            assertThat(first.path("timings").path("cache_n").asInt()).isZero();
            int cacheN = second.path("timings").path("cache_n").asInt();
            assertThat(cacheN).isPositive();
            assertThat(second.path("timings").path("prompt_n").asInt() + cacheN)
                    .isEqualTo(first.path("timings").path("prompt_n").asInt());
            // Half a millisecond per evaluated prompt token: the cached ones cost nothing.
            assertThat(first.path("timings").path("predicted_ms").asDouble()
                    - second.path("timings").path("predicted_ms").asDouble()).isBetween(cacheN * 0.5 - 1, cacheN * 0.5 + 1);
        }
    }

    @Test
    void theCacheIsBoundedAndCanBeTurnedOff() {
        List<SimulatedMessage> a = List.of(new SimulatedMessage("system", "a".repeat(640)));
        List<SimulatedMessage> b = List.of(new SimulatedMessage("system", "b".repeat(640)));
        PrefixCache small = new PrefixCache(10 * PrefixCache.BLOCK_TOKENS);
        assertThat(small.lookupAndAdd(a)).isZero();
        assertThat(small.lookupAndAdd(a)).isEqualTo(10 * PrefixCache.BLOCK_TOKENS);
        assertThat(small.lookupAndAdd(b)).isZero();
        assertThat(small.lookupAndAdd(a)).as("a's blocks were pushed out by b's").isZero();
        PrefixCache off = new PrefixCache(0);
        off.lookupAndAdd(a);
        assertThat(off.lookupAndAdd(a)).isZero();
    }

    private static SimulatedLlmServer halfMillisecondPerPromptToken(Dialect dialect) {
        return SimulatedLlmServer.start(SimulatorConfig.builder().dialect(dialect)
                .latency(new LatencyModel(0, 0.5, 0, 0)).build());
    }

    private JsonNode post(SimulatedLlmServer server, String task, String user) throws Exception {
        ObjectNode body = JSON.createObjectNode().put("model", "m");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", "### Task: " + task + "\nReview it.");
        messages.addObject().put("role", "user").put("content", user);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}

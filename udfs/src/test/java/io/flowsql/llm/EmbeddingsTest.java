package io.flowsql.llm;

import io.flowsql.config.llm.CacheMode;
import io.flowsql.config.llm.EmbeddingEncoding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flowsql.retrieval.VectorIndex;
import io.flowsql.simulator.Fault;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.embed.NgramEmbedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /v1/embeddings} through the client against the simulator: the vectors the same in base64 and as numbers, order
 * kept across batches, usage metered once per
 * call, the use's model sent, transient failures retried, the disk cache replaying without a request, and the
 * simulator's vectors making similar texts similar.
 */
class EmbeddingsTest {
    @TempDir
    Path cacheDir;

    @Test
    void batchesKeepTheInputOrderAndTheCallIsMeteredOnce() {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build());
             OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                     .embeddingBatch(4).embeddingModel("opensearch.retrieve", "bge-m3").build()).build()) {
            List<String> texts = IntStream.range(0, 10).mapToObj(i -> "singer name " + i).toList();
            EmbeddingResponse all = client.embed(EmbeddingRequest.of("opensearch.retrieve.columns", texts)).join();
            assertThat(server.embeddingRequests()).as("10 texts in batches of 4").isEqualTo(3);
            assertThat(all.vectors()).hasSize(10);
            assertThat(all.model()).isEqualTo("simulated/bge-m3");
            assertThat(all.simulated()).isTrue();
            assertThat(all.usage().promptTokens()).isPositive();
            assertThat(all.usage().estimated()).as("the server's usage").isFalse();
            // each vector is the one of its own text, whatever batch it came in
            for (int i = 0; i < texts.size(); i++) {
                float[] alone = client.embed(EmbeddingRequest.of("x", List.of(texts.get(i)))).join().vectors().get(0);
                assertThat(all.vectors().get(i)).as("text " + i).containsExactly(alone);
            }
            StageUsage usage = client.meter().stage("opensearch.retrieve.columns");
            assertThat(usage.calls()).as("one call of its use, whatever the batches").isEqualTo(1);
            assertThat(usage.promptTokens()).isEqualTo(all.usage().promptTokens());
        }
    }

    @Test
    void bothEncodingsCarryTheServersVectorsBitForBit() {
        List<String> texts = List.of("singer name", "concert year", "stadium capacity");
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build())) {
            for (EmbeddingEncoding encoding : EmbeddingEncoding.values()) {
                try (OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                        .embeddingEncoding(encoding).build()).build()) {
                    List<float[]> vectors = client.embed(EmbeddingRequest.of("opensearch.retrieve.columns", texts)).join().vectors();
                    for (int i = 0; i < texts.size(); i++) {
                        assertThat(vectors.get(i)).as("%s, text %d", encoding, i).containsExactly(NgramEmbedder.embed(texts.get(i)));
                    }
                }
            }
        }
    }

    @Test
    void transientFailuresAreRetriedWithinTheBudget() {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder()
                .scriptedFaults(Fault.SERVER_ERROR, Fault.MALFORMED_JSON, Fault.UNAVAILABLE).build());
             OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.patient(server, 4).build())
                     .build()) {
            EmbeddingResponse response = client.embed(EmbeddingRequest.of("u", List.of("a", "b"))).join();
            assertThat(response.vectors()).hasSize(2);
            assertThat(response.retries()).as("the three faults, each retried").isGreaterThanOrEqualTo(3)
                    .isEqualTo(server.embeddingRequests() - 1);
        }
        try (SimulatedLlmServer down = SimulatedLlmServer.start(SimulatorConfig.builder()
                .faultRate(Fault.SERVER_ERROR, 1.0).build());
             OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.patient(down, 4)
                     .maxAttempts(3).build()).build()) {
            Throwable failed = catchThrowable(() -> client.embed(EmbeddingRequest.of("u", List.of("a"))).join());
            assertThat(failed).isInstanceOf(CompletionException.class).cause().isInstanceOf(LlmException.class);
            assertThat(down.embeddingRequests()).isEqualTo(3);
        }
    }

    /**
     * llama-server started without --embeddings answers every /v1/embeddings call with 501: asked once, not retried for
     * the whole retry window (each opensearch question used to wait 90 s for its retrieval to be skipped).
     */
    @Test
    void anEndpointThatIsNotImplementedIsAskedOnce() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        server.createContext("/v1/embeddings", exchange -> {
            requests.incrementAndGet();
            byte[] body = ("{\"error\":{\"code\":501,\"message\":\"This server does not support embeddings. Start it with "
                    + "`--embeddings`\",\"type\":\"not_supported_error\"}}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(501, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/v1").defaultModel("test-model")
                .callTimeout(java.time.Duration.ofSeconds(2)).totalBudget(java.time.Duration.ofSeconds(10))
                .initialBackoff(java.time.Duration.ofMillis(20)).maxBackoff(java.time.Duration.ofMillis(200)).build()).build()) {
            Throwable failed = catchThrowable(() -> client.embed(EmbeddingRequest.of("u", List.of("a"))).join());
            assertThat(failed).isInstanceOf(CompletionException.class).cause().isInstanceOf(LlmException.class);
            LlmException error = (LlmException) failed.getCause();
            assertThat(error.kind()).as(error.getMessage()).isEqualTo(LlmErrorKind.INVALID_REQUEST);
            assertThat(error.getMessage()).contains("--embeddings");
            assertThat(requests.get()).as("requests sent").isEqualTo(1);
        } finally {
            server.stop(0);
        }
    }

    /**
     * A server whose embeddings carry no usage (the field is optional): the call's usage is estimated from the inputs'
     * tokens, as the client counts them only then (no tokens-per-minute limit asks for them before the call).
     */
    @Test
    void embeddingsWithoutUsageAreChargedTheInputsEstimatedTokens() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/embeddings", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("{\"object\":\"list\",\"model\":\"m\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
                    + "\"embedding\":[0.5,0.25]},{\"object\":\"embedding\",\"index\":1,\"embedding\":[0.125,1.0]}]}")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        List<String> texts = List.of("singer name", "the concerts of each stadium in 2014");
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/v1").defaultModel("test-model")
                .embeddingEncoding(EmbeddingEncoding.FLOAT).callTimeout(java.time.Duration.ofSeconds(2))
                .totalBudget(java.time.Duration.ofSeconds(10)).build()).build()) {
            EmbeddingResponse response = client.embed(EmbeddingRequest.of("u", texts)).join();
            assertThat(response.vectors().get(1)).containsExactly(0.125f, 1.0f);
            assertThat(response.usage().estimated()).as("no usage from the server").isTrue();
            TokenEstimator tokens = new TokenEstimator();
            assertThat(response.usage().promptTokens()).isEqualTo(tokens.countText(texts.get(0)) + tokens.countText(texts.get(1)));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void theDiskCacheReplaysEmbeddingsWithoutARequest() {
        List<String> texts = List.of("France", "Netherlands");
        EmbeddingResponse recorded;
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build())) {
            LlmClientConfig config = SimulatorClients.fastRetries(server).build();
            try (CachingLlmClient client = new CachingLlmClient(OpenAiCompatibleClient.builder(config).build(),
                    new ResponseCache(cacheDir), CacheMode.READ_WRITE, config::modelFor, config::embeddingModelFor)) {
                recorded = client.embed(EmbeddingRequest.of("u", texts)).join();
            }
            assertThat(server.embeddingRequests()).isEqualTo(1);
        }
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build())) {
            LlmClientConfig config = SimulatorClients.fastRetries(server).build();
            try (CachingLlmClient client = new CachingLlmClient(OpenAiCompatibleClient.builder(config).build(),
                    new ResponseCache(cacheDir), CacheMode.READ_ONLY, config::modelFor, config::embeddingModelFor)) {
                EmbeddingResponse replayed = client.embed(EmbeddingRequest.of("u", texts)).join();
                assertThat(replayed.cached()).isTrue();
                assertThat(replayed.vectors().get(1)).containsExactly(recorded.vectors().get(1));
                Throwable miss = catchThrowable(() -> client.embed(EmbeddingRequest.of("u", List.of("Japan"))).join());
                assertThat(miss).cause().isInstanceOf(LlmException.class).hasMessageContaining("replay-only");
            }
            assertThat(server.embeddingRequests()).isZero();
        }
    }

    @Test
    void theSimulatorsVectorsMakeSimilarTextsSimilar() {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build());
             OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server).build())
                     .build()) {
            List<String> columns = List.of("singer name", "singer country", "concert year", "stadium capacity");
            List<float[]> vectors = new ArrayList<>(client.embed(EmbeddingRequest.of("c", columns)).join().vectors());
            VectorIndex<String> index = new VectorIndex<>(columns, vectors);
            float[] query = client.embed(EmbeddingRequest.of("q", List.of("singer_name"))).join().vectors().get(0);
            List<VectorIndex.Hit<String>> hits = index.search(query, 2, 0.0);
            assertThat(hits.get(0).item()).isEqualTo("singer name");
            assertThat(hits.get(0).score()).isGreaterThan(0.99);
            assertThat(index.search(query, 4, 0.7)).extracting(VectorIndex.Hit::item).containsExactly("singer name");
        }
    }
}

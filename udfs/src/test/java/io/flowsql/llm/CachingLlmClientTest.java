package io.flowsql.llm;

import io.flowsql.config.llm.CacheMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingLlmClientTest {
    @TempDir
    Path cacheDir;

    private static SimulatedLlmServer server(long seed) {
        return SimulatedLlmServer.start(SimulatorConfig.builder().seed(seed)
                .responder(SimulatorClients.SAMPLE_TASK, SimulatorClients.sampling()).build());
    }

    private List<ChatResponse> run(SimulatedLlmServer server, CacheMode mode) {
        LlmClientConfig config = SimulatorClients.fastRetries(server).stageModel("gen", "big").build();
        try (CachingLlmClient client = new CachingLlmClient(OpenAiCompatibleClient.builder(config).build(),
                new ResponseCache(cacheDir), mode, config::modelFor)) {
            List<CompletableFuture<ChatResponse>> calls = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                calls.add(client.chat(SimulatorClients.request("gen.sql", "question " + i).withSampling(0.7, 2)));
            }
            return calls.stream().map(CompletableFuture::join).toList();
        }
    }

    @Test
    void secondRunReplaysWithoutAnyRequest() {
        List<ChatResponse> recorded;
        try (SimulatedLlmServer first = server(1)) {
            recorded = run(first, CacheMode.READ_WRITE);
            assertThat(first.requestCount()).isEqualTo(10);
        }
        assertThat(recorded).allSatisfy(r -> assertThat(r.cached()).isFalse());
        try (SimulatedLlmServer second = server(2)) {
            List<ChatResponse> replayed = run(second, CacheMode.READ_ONLY);
            assertThat(second.requestCount()).isZero();
            assertThat(replayed).extracting(ChatResponse::choices)
                    .containsExactlyElementsOf(recorded.stream().map(ChatResponse::choices).toList());
            assertThat(replayed).allSatisfy(r -> {
                assertThat(r.cached()).isTrue();
                assertThat(r.simulated()).isTrue();
            });
            List<ChatResponse> fresh = run(second, CacheMode.OFF);
            assertThat(second.requestCount()).isEqualTo(10);
            assertThat(fresh.get(0).choices()).isNotEqualTo(recorded.get(0).choices());
        }
    }

    @Test
    void replayOnlyFailsOnAMissAndTheKeyFollowsTheModel() {
        try (SimulatedLlmServer server = server(3)) {
            LlmClientConfig config = SimulatorClients.fastRetries(server).build();
            ResponseCache cache = new ResponseCache(cacheDir);
            try (CachingLlmClient client = new CachingLlmClient(OpenAiCompatibleClient.builder(config).build(),
                    cache, CacheMode.READ_ONLY, config::modelFor)) {
                Throwable thrown = catchThrowable(() -> client.chat(SimulatorClients.request("gen", "q")).join());
                assertThat(thrown).isInstanceOf(CompletionException.class).hasCauseInstanceOf(LlmException.class);
                assertThat(server.requestCount()).isZero();
            }
            ChatRequest request = SimulatorClients.request("gen", "q");
            assertThat(cache.keyOf(request.withModel("a"))).isNotEqualTo(cache.keyOf(request.withModel("b")));
            assertThat(cache.keyOf(request.withModel("a"))).isEqualTo(cache.keyOf(
                    SimulatorClients.request("other-stage", "q").withModel("a")));
            assertThat(cache.keyOf(request.withModel("a")))
                    .isNotEqualTo(cache.keyOf(request.withModel("a").withSampling(0.5, null)));
        }
    }
}

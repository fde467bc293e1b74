package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.sql.SpiderData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine configured with a response cache records over HTTP once and replays afterwards, also read-only from a new engine. */
class EngineLlmCacheTest {
    private static final String TASK = "test.cache";

    @TempDir
    Path cacheDir;

    /** Answers with a random number, so a replayed answer can be told from a fresh one. */
    private static SimulatedLlmServer server(long seed) {
        return SimulatedLlmServer.start(SimulatorConfig.builder().seed(seed)
                .responder(TASK, (request, context) -> Optional.of(List.of("answer-" + context.random().nextInt(1_000_000_000))))
                .build());
    }

    private static EngineConfig config(SimulatedLlmServer server, LlmCacheSettings cache) {
        LlmClientConfig llm = LlmClientConfig.builder(server.baseUrl()).defaultModel("test-model")
                .callTimeout(Duration.ofSeconds(5)).totalBudget(Duration.ofSeconds(10)).build();
        return EngineConfig.of(llm, SpiderData.locator(), "full").withLlmCache(cache);
    }

    private static ChatRequest request(String question) {
        return ChatRequest.of("test.stage", List.of(
                ChatMessage.system("### Task: " + TASK + "\nAnswer briefly."),
                ChatMessage.user("Database: concert_singer\nQuestion: " + question)));
    }

    private static ChatResponse ask(EngineLease lease, String question) {
        return lease.engine().llm().chat(request(question)).join();
    }

    @Test
    void recordsOnceThenReplaysAndAReadOnlyEngineSendsNothing() {
        ChatResponse recorded;
        try (SimulatedLlmServer first = server(1);
             EngineLease lease = EngineFactory.shared(config(first, new LlmCacheSettings(cacheDir.toString(), "read-write")))) {
            recorded = ask(lease, "How many singers are there?");
            ChatResponse again = ask(lease, "How many singers are there?");
            assertThat(first.requestCount()).isEqualTo(1);
            assertThat(recorded.cached()).isFalse();
            assertThat(again.cached()).isTrue();
            assertThat(again.choices()).isEqualTo(recorded.choices());
        }
        try (SimulatedLlmServer second = server(2);
             EngineLease lease = EngineFactory.shared(config(second, new LlmCacheSettings(cacheDir.toString(), "read-only")))) {
            ChatResponse replayed = ask(lease, "How many singers are there?");
            assertThat(replayed.choices()).isEqualTo(recorded.choices());
            assertThatThrownBy(() -> ask(lease, "A question never recorded"))
                    .isInstanceOf(CompletionException.class).hasMessageContaining("replay-only cache");
            assertThat(second.requestCount()).isZero();
        }
    }

    @Test
    void withoutACacheEveryRequestGoesToTheServer() {
        try (SimulatedLlmServer server = server(3);
             EngineLease lease = EngineFactory.shared(config(server, LlmCacheSettings.none()))) {
            ChatResponse one = ask(lease, "How many singers are there?");
            ChatResponse two = ask(lease, "How many singers are there?");
            assertThat(server.requestCount()).isEqualTo(2);
            assertThat(two.choices()).isNotEqualTo(one.choices());
        }
    }

    @Test
    void aBadCacheModeIsRefused() {
        assertThatThrownBy(() -> new LlmCacheSettings("x", "sometimes")).hasMessageContaining("read-write, read-only or off");
        assertThat(new LlmCacheSettings("x", "off").enabled()).isFalse();
        assertThat(new LlmCacheSettings(" ", "read-write").enabled()).isFalse();
    }
}

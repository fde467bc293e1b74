package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmClientConfigTest {

    @Test
    void readsTheEnvironmentAndHidesTheKey() {
        LlmClientConfig config = LlmClientConfig.fromEnvironment(Map.of(
                "LLM_BASE_URL", "http://127.0.0.1:8000/v1/",
                "LLM_API_KEY", "sk-very-secret",
                "LLM_MODEL", "qwen2.5-7b",
                "LLM_STAGE_MODELS", "mmsql=qwen2.5-0.5b, mmsql.generate=qwen2.5-14b",
                "LLM_TIMEOUT_SECONDS", "30",
                "LLM_REQUESTS_PER_MINUTE", "120"));
        assertThat(config.baseUrl()).isEqualTo("http://127.0.0.1:8000/v1");
        assertThat(config.apiKey()).isEqualTo("sk-very-secret");
        assertThat(config.callTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.requestsPerMinute()).isEqualTo(120);
        assertThat(config.toString()).doesNotContain("sk-very-secret").contains("qwen2.5-7b");
    }

    @Test
    void embeddingsAreAskedAsBase64UnlessTheEnvironmentSaysFloat() {
        assertThat(LlmClientConfig.fromEnvironment(Map.of()).embeddingEncoding())
                .isEqualTo(io.flowsql.config.llm.EmbeddingEncoding.BASE64);
        assertThat(LlmClientConfig.fromEnvironment(Map.of("LLM_EMBEDDING_ENCODING", " Float ")).embeddingEncoding())
                .isEqualTo(io.flowsql.config.llm.EmbeddingEncoding.FLOAT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LlmClientConfig.fromEnvironment(Map.of("LLM_EMBEDDING_ENCODING", "hex")))
                .hasMessageContaining("llm.embedding-encoding must be base64 or float");
    }

    @Test
    void stageModelsMatchExactlyThenByLongestPrefix() {
        LlmClientConfig config = LlmClientConfig.builder("http://127.0.0.1:1/v1").defaultModel("base")
                .stageModel("mmsql", "small").stageModel("mmsql.generate", "strong").build();
        assertThat(config.modelFor(ask("mmsql.detect"))).isEqualTo("small");
        assertThat(config.modelFor(ask("mmsql.generate"))).isEqualTo("strong");
        assertThat(config.modelFor(ask("mmsqlx.detect"))).isEqualTo("base");
        assertThat(config.modelFor(ask("sqlfix"))).isEqualTo("base");
        assertThat(config.modelFor(ask("mmsql.detect").withModel("explicit"))).isEqualTo("explicit");
    }

    @Test
    void survivesJavaSerializationAsFlinkShipsIt() throws Exception {
        LlmClientConfig config = LlmClientConfig.builder("http://127.0.0.1:1/v1").apiKey("k")
                .stageModel("a", "m").requestsPerMinute(60).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(config);
        }
        LlmClientConfig copy = (LlmClientConfig) new ObjectInputStream(
                new ByteArrayInputStream(bytes.toByteArray())).readObject();
        assertThat(copy.modelFor(ask("a.b"))).isEqualTo("m");
        assertThat(copy.apiKey()).isEqualTo("k");
        assertThat(copy.requestsPerMinute()).isEqualTo(60);
    }

    @Test
    void theQueueBudgetDefaultsToTheCallBudgetAndContradictionsNameTheirKeys() {
        LlmClientConfig.Builder base = LlmClientConfig.builder("http://127.0.0.1:1/v1").totalBudget(Duration.ofMinutes(2));
        assertThat(base.build().queueBudget()).isEqualTo(Duration.ofMinutes(2));
        assertThat(base.queueBudget(Duration.ofSeconds(20)).build().queueBudget()).isEqualTo(Duration.ofSeconds(20));
        assertThatThrownBy(() -> base.queueBudget(Duration.ofMinutes(3)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("llm.queue-budget")
                .hasMessageContaining("llm.total-budget");
        assertThatThrownBy(() -> base.queueBudget(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("llm.queue-budget");
        assertThatThrownBy(() -> LlmClientConfig.builder("http://127.0.0.1:1/v1").initialBackoff(Duration.ofSeconds(10))
                .maxBackoff(Duration.ofSeconds(5)).build()).hasMessageContaining("maxBackoff");
        assertThat(LlmClientConfig.fromEnvironment(Map.of("LLM_QUEUE_BUDGET_SECONDS", "15")).queueBudget())
                .isEqualTo(Duration.ofSeconds(15));
    }

    private static ChatRequest ask(String stage) {
        return ChatRequest.of(stage, List.of(ChatMessage.user("hi")));
    }
}

package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.Dialect;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The client reads the prompt tokens a server served from its prefix cache, in each dialect that reports them. */
class CachedPromptTokensTest {

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"OPENAI", "VLLM", "LLAMA_CPP"})
    void cachedPromptTokensAreReadFromUsageOrTimings(Dialect dialect) {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().dialect(dialect).build());
             OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server).build()).build()) {
            String schema = "Schema:\n" + "# Table: singer\n(Name, text, examples: ['Joe Sharp'])\n".repeat(30);
            ChatResponse first = client.chat(request(schema, "How many singers are there?")).join();
            ChatResponse second = client.chat(request(schema, "Who is the oldest singer?")).join();
            assertThat(first.usage().cachedPromptTokens()).isZero();
            assertThat(second.usage().cachedPromptTokens()).isPositive()
                    .isLessThanOrEqualTo(second.usage().promptTokens())
                    .isEqualTo((int) server.tokenCounts().cachedPromptTokens());
        }
    }

    private static ChatRequest request(String schema, String question) {
        return ChatRequest.of("test.sample", List.of(ChatMessage.system("### Task: test.sample\nAnswer briefly."),
                ChatMessage.user("Database: concert_singer\n" + schema + "Question: " + question)));
    }
}

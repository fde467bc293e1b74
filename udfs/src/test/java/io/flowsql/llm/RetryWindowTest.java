package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.pipeline.StageTrace;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A server that is down is retried for the retry window, and the failed call shows in the stage's trace. */
class RetryWindowTest {
    @Test
    void aServerThatStaysDownIsRetriedForTheWindowThenTheCallFailsCountedInTheTrace() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        LlmClientConfig config = LlmClientConfig.builder("http://127.0.0.1:" + port + "/v1")
                .initialBackoff(Duration.ofMillis(100)).maxBackoff(Duration.ofMillis(400))
                .retryWindow(Duration.ofSeconds(2)).build();
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(config).build()) {
            StageTrace trace = new StageTrace("magsql.decompose");
            long start = System.nanoTime();
            ChatRequest request = ChatRequest.of("magsql.decompose", List.of(ChatMessage.user("Question: q")));
            assertThatThrownBy(() -> new AgentCall(client).ask(request, ModelOutput::sql, trace).join())
                    .cause().isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(LlmErrorKind.RETRIES_EXHAUSTED);
                        assertThat(e.getMessage()).contains("retry window").contains("CONNECTION: ")
                                .doesNotContain("RETRIES_EXHAUSTED: RETRIES_EXHAUSTED");
                        assertThat(e.attempts()).isGreaterThan(3);
                    });
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(millis).as("the window, not the 5 min budget").isBetween(1_500L, 30_000L);
            assertThat(trace.llmCalls).as("the failed call counts").isEqualTo(1);
            assertThat(trace.retries).isGreaterThan(2);
            assertThat(trace.error).startsWith("RETRIES_EXHAUSTED: ");
        }
    }
}

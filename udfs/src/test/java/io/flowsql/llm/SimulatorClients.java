package io.flowsql.llm;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedLlmServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/** Test helpers: a client configuration aimed at an in-process simulator, with quick retries. */
final class SimulatorClients {
    static final String SAMPLE_TASK = "test.sample";

    private SimulatorClients() {}

    /** Answers each choice with a different random token, so repeated calls are told apart. */
    static Responder sampling() {
        return (request, context) -> Optional.of(IntStream.range(0, Math.max(1, request.n()))
                .mapToObj(i -> "answer-" + context.random().nextInt(1_000_000_000)).toList());
    }

    static LlmClientConfig.Builder fastRetries(SimulatedLlmServer server) {
        return LlmClientConfig.builder(server.baseUrl())
                .defaultModel("test-model")
                .callTimeout(Duration.ofSeconds(2))
                .totalBudget(Duration.ofSeconds(10))
                .initialBackoff(Duration.ofMillis(20))
                .maxBackoff(Duration.ofMillis(200));
    }

    static ChatRequest request(String stage, String question) {
        return ChatRequest.of(stage, List.of(
                ChatMessage.system("### Task: " + SAMPLE_TASK + "\nAnswer briefly."),
                ChatMessage.user("Database: concert_singer\nQuestion: " + question)));
    }
}

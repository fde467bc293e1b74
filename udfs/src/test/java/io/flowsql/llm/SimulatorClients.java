package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.Fault;
import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

    /** A server whose first {@code hung} requests hang for a minute; the rest are answered. */
    static SimulatedLlmServer hangingFirst(int hung) {
        return SimulatedLlmServer.start(SimulatorConfig.builder()
                .scriptedFaults(Collections.nCopies(hung, Fault.HANG).toArray(Fault[]::new))
                .hangMillis(60_000)
                .build());
    }

    /** Quick retries, a one-minute call and budget, {@code permits} connection permits. */
    static LlmClientConfig.Builder patient(SimulatedLlmServer server, int permits) {
        return fastRetries(server).callTimeout(Duration.ofSeconds(60)).totalBudget(Duration.ofSeconds(60))
                .maxConcurrency(permits);
    }

    /** Starts {@code count} calls that stay in flight and returns once the server has seen them all. */
    static List<CompletableFuture<ChatResponse>> inFlight(LlmClient client, SimulatedLlmServer server, int count)
            throws InterruptedException {
        List<CompletableFuture<ChatResponse>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            calls.add(client.chat(request("hang", "hung " + i)));
        }
        awaitRequests(server, count);
        return calls;
    }

    /** Waits (at most 20 s) until the server has received {@code count} requests, and checks it got no more. */
    static void awaitRequests(SimulatedLlmServer server, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (server.requestCount() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(server.requestCount()).as("requests seen by the server").isEqualTo(count);
    }

    static ChatRequest request(String stage, String question) {
        return ChatRequest.of(stage, List.of(
                ChatMessage.system("### Task: " + SAMPLE_TASK + "\nAnswer briefly."),
                ChatMessage.user("Database: concert_singer\nQuestion: " + question)));
    }
}

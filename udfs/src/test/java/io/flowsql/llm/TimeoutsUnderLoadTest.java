package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.Fault;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Regression: with more calls than connection permits and a server that never answers, each call must
 * still time out after its own call timeout. (A per-host connection cap in the HTTP client once blocked
 * the event loop when a timed-out call handed its permit on, so timeouts fired ~10 s late.)
 */
class TimeoutsUnderLoadTest {

    @Test
    void callsQueuedBehindHangingOnesStillTimeOutOnTime() throws Exception {
        int calls = 64;
        int permits = 8;
        // each request must reach the server within its timeout to be counted: 300 ms was too tight on a machine
        // loaded to 30+ (the attempt timeout fires on time now; async-http-client's 100 ms timer wheel used to add slack)
        long callTimeoutMillis = 500;
        SimulatorConfig config = SimulatorConfig.builder()
                .faultRate(Fault.HANG, 1.0)
                .hangMillis(30_000)
                .build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                        .callTimeout(Duration.ofMillis(callTimeoutMillis))
                        .maxConcurrency(permits)
                        .maxAttempts(1)
                        .build()).build()) {
            long start = System.nanoTime();
            List<CompletableFuture<ChatResponse>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                futures.add(client.chat(SimulatorClients.request("hang", "question " + i)));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).handle((v, e) -> null)
                    .get(20, TimeUnit.SECONDS);
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

            long waves = calls / permits;
            assertThat(elapsedMillis).as("%d waves of %d ms timeouts", waves, callTimeoutMillis)
                    .isLessThan(waves * callTimeoutMillis * 2 + 2_000);
            for (CompletableFuture<ChatResponse> f : futures) {
                assertThat(f).isCompletedExceptionally();
                try {
                    f.join();
                } catch (CompletionException e) {
                    LlmException failure = (LlmException) e.getCause();
                    assertThat(failure.getMessage()).contains("TIMEOUT");
                }
            }
            assertThat(server.requestCount()).isEqualTo(calls);
        }
    }
}

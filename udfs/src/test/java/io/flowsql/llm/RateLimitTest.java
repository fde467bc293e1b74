package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one deliberately slow test (about 30 s): a request-per-minute limit holds over half a minute. */
class RateLimitTest {

    @Test
    void requestsPerMinuteHoldWithinFivePercentOverThirtySeconds() throws Exception {
        int perMinute = 600;
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build());
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                        .requestsPerMinute(perMinute)
                        .maxConcurrency(32)
                        .totalBudget(Duration.ofSeconds(120))
                        .build()).build()) {
            for (int i = 0; i < 400; i++) {
                client.chat(SimulatorClients.request("rate", "question " + i));
            }
            Thread.sleep(30_000);
            List<RecordedRequest> seen = server.requests();
            long first = seen.get(0).receivedAtNanos();
            long inWindow = seen.stream().filter(r -> r.receivedAtNanos() - first < 30_000_000_000L).count();
            double expected = perMinute / 2.0;
            assertThat(Math.abs(inWindow - expected) / expected).as("requests in 30 s: %d", inWindow)
                    .isLessThanOrEqualTo(0.05);
        }
    }

    @Test
    void tokensPerMinuteSlowCallsDown() {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder().build());
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                        .tokensPerMinute(6_000)
                        .build()).build()) {
            long start = System.nanoTime();
            for (int i = 0; i < 8; i++) {
                client.chat(SimulatorClients.request("tokens", "question " + i)).join();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            long tokens = client.meter().stage("tokens").totalTokens();
            long allowedWithoutWaitingMillis = (tokens - 100) * 60_000 / 6_000;
            assertThat(millis).isGreaterThanOrEqualTo(allowedWithoutWaitingMillis * 8 / 10);
        }
    }
}

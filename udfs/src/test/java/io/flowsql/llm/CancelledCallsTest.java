package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.Fault;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Cancelling a call's future (what a stage timeout does) aborts its HTTP request and frees its connection permit at
 * once; calls waiting for a permit behind it go ahead, and a cancelled call waiting for a permit never takes one; a
 * call cancelled while it waits to retry makes no further attempt.
 */
class CancelledCallsTest {

    @Test
    void cancellingHungCallsFreesTheirPermitsForTheNextCalls() throws Exception {
        int permits = 4;
        try (SimulatedLlmServer server = SimulatorClients.hangingFirst(permits);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        SimulatorClients.patient(server, permits).build()).build()) {
            List<CompletableFuture<ChatResponse>> hung = SimulatorClients.inFlight(client, server, permits);
            CompletableFuture<ChatResponse> queued = client.chat(SimulatorClients.request("next", "queued"));
            CompletableFuture<ChatResponse> cancelledWhileQueued = client.chat(SimulatorClients.request("next", "gone"));
            cancelledWhileQueued.cancel(false);

            hung.forEach(call -> call.cancel(false));

            ChatResponse answer = queued.get(20, TimeUnit.SECONDS);
            assertThat(answer.choices()).isNotEmpty();
            assertThat(server.requestCount()).as("the call cancelled while queued was never sent").isEqualTo(permits + 1);
            // all permits are free again: as many calls as permits run at once and end
            List<CompletableFuture<ChatResponse>> after = new ArrayList<>();
            for (int i = 0; i < permits; i++) {
                after.add(client.chat(SimulatorClients.request("next", "after " + i)));
            }
            CompletableFuture.allOf(after.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void cancellingACallBetweenAttemptsStopsItsRetries() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().faultRate(Fault.UNAVAILABLE, 1.0).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                        .initialBackoff(Duration.ofSeconds(1)).maxBackoff(Duration.ofSeconds(2))
                        .maxAttempts(20).totalBudget(Duration.ofSeconds(30))
                        .build()).build()) {
            CompletableFuture<ChatResponse> call = client.chat(SimulatorClients.request("s", "down"));
            SimulatorClients.awaitRequests(server, 1);
            call.cancel(false);
            long sentBeforeCancel = server.requestCount();
            Thread.sleep(2_500); // a retry would come 0.8-1.2 s after the last attempt
            assertThat(server.requestCount()).as("no attempt after the cancel").isEqualTo(sentBeforeCancel);
            assertThat(client.meter().stage("s").failures()).isEqualTo(1);
        }
    }
}

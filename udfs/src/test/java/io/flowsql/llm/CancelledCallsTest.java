package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.Fault;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Cancelling a call's future (what a stage timeout does) aborts its HTTP request and frees its connection permit at
 * once; calls waiting for a permit behind it go ahead, and a cancelled call waiting for a permit never takes one.
 */
class CancelledCallsTest {

    @Test
    void cancellingHungCallsFreesTheirPermitsForTheNextCalls() throws Exception {
        int permits = 4;
        SimulatorConfig config = SimulatorConfig.builder()
                .scriptedFaults(Collections.nCopies(permits, Fault.HANG).toArray(Fault[]::new))
                .hangMillis(60_000)
                .build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.fastRetries(server)
                        .callTimeout(Duration.ofSeconds(60))
                        .totalBudget(Duration.ofSeconds(60))
                        .maxConcurrency(permits)
                        .build()).build()) {
            List<CompletableFuture<ChatResponse>> hung = new ArrayList<>();
            for (int i = 0; i < permits; i++) {
                hung.add(client.chat(SimulatorClients.request("hang", "hung " + i)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (server.requestCount() < permits && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(server.requestCount()).as("every permit is taken by a hung call").isEqualTo(permits);
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
}

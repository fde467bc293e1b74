package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flowsql.simulator.SimulatedLlmServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A call's wait for a connection permit has its own budget (llm.queue-budget): past it the call fails with
 * QUEUE_TIMEOUT and is never sent, and a waiter that gave up never takes a permit (the permits all come back).
 */
class QueueBudgetTest {

    @Test
    void aCallThatWaitsLongerThanTheQueueBudgetFailsNamingTheQueueAndLeavesNoPermitTaken() throws Exception {
        int permits = 2;
        try (SimulatedLlmServer server = SimulatorClients.hangingFirst(permits);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.patient(server, permits)
                        .queueBudget(Duration.ofMillis(300)).build()).build()) {
            List<CompletableFuture<ChatResponse>> hung = SimulatorClients.inFlight(client, server, permits);
            List<CompletableFuture<ChatResponse>> queued = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < 6; i++) {
                queued.add(client.chat(SimulatorClients.request("queued", "queued " + i)));
            }
            for (CompletableFuture<ChatResponse> call : queued) {
                Throwable thrown = catchThrowable(() -> call.get(20, TimeUnit.SECONDS));
                assertThat(thrown).hasCauseInstanceOf(LlmException.class);
                LlmException failure = (LlmException) thrown.getCause();
                assertThat(failure.kind()).isEqualTo(LlmErrorKind.QUEUE_TIMEOUT);
                assertThat(failure.getMessage()).contains("llm.queue-budget").contains("nothing was sent");
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(millis).as("the queue budget, not the 60 s call budget").isBetween(250L, 15_000L);
            assertThat(server.requestCount()).as("no queued call was sent").isEqualTo(permits);
            assertThat(client.meter().stage("queued").failures()).isEqualTo(6);

            hung.forEach(call -> call.cancel(false));
            // every permit is back: as many calls as permits run at once (with a queue budget far below the time
            // a leaked permit would hold them) and end
            List<CompletableFuture<ChatResponse>> after = new ArrayList<>();
            for (int i = 0; i < permits * 3; i++) {
                after.add(client.chat(SimulatorClients.request("after", "after " + i)));
            }
            CompletableFuture.allOf(after.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aZeroQueueBudgetFailsAtOnceWhenNoPermitIsFree() throws Exception {
        try (SimulatedLlmServer server = SimulatorClients.hangingFirst(1);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(SimulatorClients.patient(server, 1)
                        .queueBudget(Duration.ZERO).build()).build()) {
            CompletableFuture<ChatResponse> hung = SimulatorClients.inFlight(client, server, 1).get(0);
            Throwable thrown = catchThrowable(() -> client.chat(SimulatorClients.request("s", "no queue"))
                    .get(5, TimeUnit.SECONDS));
            assertThat(thrown).hasCauseInstanceOf(LlmException.class);
            assertThat(((LlmException) thrown.getCause()).kind()).isEqualTo(LlmErrorKind.QUEUE_TIMEOUT);
            hung.cancel(false);
            assertThat(client.chat(SimulatorClients.request("s", "permit back")).get(20, TimeUnit.SECONDS).text())
                    .isNotEmpty();
            assertThat(server.requestCount()).isEqualTo(2);
        }
    }
}

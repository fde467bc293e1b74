package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flowsql.simulator.Fault;
import io.flowsql.simulator.LatencyModel;
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
 * A call's wait for a connection permit has its own budget (llm.queue-budget): past it the call fails with
 * QUEUE_TIMEOUT and is never sent, and a waiter that gave up never takes a permit (the permits all come back).
 */
class QueueBudgetTest {

    @Test
    void aCallThatWaitsLongerThanTheQueueBudgetFailsNamingTheQueueAndLeavesNoPermitTaken() throws Exception {
        int permits = 2;
        // answers take 1 s, well past the 300 ms queue budget: a call that has to queue behind an answer fails
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder()
                        .scriptedFaults(Collections.nCopies(permits, Fault.HANG).toArray(Fault[]::new)).hangMillis(60_000)
                        .latency(LatencyModel.fixed(1_000)).build());
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
            // every permit comes back: a wave of as many calls as permits, sent when the wave before it has ended,
            // runs without queueing only when no permit leaked (a leaked permit never comes back, so one call of every
            // wave would queue behind a 1 s answer and fail after the 300 ms budget). The cancelled calls give their permits back asynchronously, so
            // waves are retried for up to 20 s until one passes whole; then two more must pass.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!waveRunsWhole(client, permits)) {
                assertThat(System.nanoTime()).as("a wave of %d calls ran whole within 20 s", permits).isLessThan(deadline);
            }
            assertThat(waveRunsWhole(client, permits) && waveRunsWhole(client, permits)).isTrue();
        }
    }

    /** Whether {@code permits} calls sent at once all got an answer (none failed for want of a permit). */
    private static boolean waveRunsWhole(OpenAiCompatibleClient client, int permits) throws Exception {
        List<CompletableFuture<ChatResponse>> wave = new ArrayList<>();
        for (int i = 0; i < permits; i++) {
            wave.add(client.chat(SimulatorClients.request("after", "after " + i)));
        }
        boolean whole = true;
        for (CompletableFuture<ChatResponse> call : wave) {
            whole &= catchThrowable(() -> call.get(20, TimeUnit.SECONDS)) == null;
        }
        return whole;
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

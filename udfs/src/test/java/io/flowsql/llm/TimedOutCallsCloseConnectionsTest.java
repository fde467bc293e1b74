package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every way a call gives up on an exchange — the attempt's time-out, the call's budget, the caller's cancel — closes
 * that exchange's connection at once, against a server that accepts and never answers (a stalled network). Regression:
 * the exchange used to be ended with async-http-client's {@code abort}, which completes its future and cancels its
 * own time-out but leaves the channel open, so a timed-out call's connection stayed open until the server answered
 * (seen as "1 of 32 held chunks given up" in ComponentRestartsITCase's network stall).
 */
class TimedOutCallsCloseConnectionsTest {
    /** Shorter than the time-outs that remain in the budget and cancel cases, so none of them can close the connection. */
    private static final long CLOSE_WITHIN_MILLIS = 1_500;
    /** Loaded once: its registry of encodings takes seconds to build on a loaded machine. */
    private static final TokenEstimator TOKENS = new TokenEstimator();
    /** Enough attempts that only a time-out or a cancel ends the call. */
    private static final int MANY_ATTEMPTS = 30;

    @Test
    void everyTimedOutAttemptClosesItsConnection() throws Exception {
        int calls = 6;
        int attempts = 3;
        try (SilentServer server = SilentServer.start();
                OpenAiCompatibleClient client = client(server.baseUrl(), Duration.ofMillis(400), attempts,
                        Duration.ofSeconds(20))) {
            List<CompletableFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                futures.add(client.chat(SimulatorClients.request("stalled", "question " + i)));
            }
            futures.add(client.embed(EmbeddingRequest.of("stalled.embed", List.of("a text to embed"))));
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).handle((ok, error) -> null)
                    .get(20, TimeUnit.SECONDS);

            for (CompletableFuture<?> future : futures) {
                assertThat(kindOf(future)).isEqualTo(LlmErrorKind.RETRIES_EXHAUSTED);
            }
            assertThat(server.accepted()).as("one connection per attempt").isEqualTo((calls + 1) * attempts);
            assertThat(server.awaitAllClosed(CLOSE_WITHIN_MILLIS))
                    .as("connections of timed-out attempts still open %d ms after the calls failed", CLOSE_WITHIN_MILLIS)
                    .isZero();
        }
    }

    @Test
    void aSpentBudgetClosesTheAttemptInFlight() throws Exception {
        try (SilentServer server = SilentServer.start();
                OpenAiCompatibleClient client = client(server.baseUrl(), Duration.ofSeconds(2), MANY_ATTEMPTS,
                        Duration.ofMillis(2_300))) {
            // the first attempt times out at 2 s, the second is cut by the budget at 2.3 s, 2 s before its own time-out
            CompletableFuture<ChatResponse> call = client.chat(SimulatorClients.request("stalled", "over budget"));
            call.handle((ok, error) -> null).get(10, TimeUnit.SECONDS);

            assertThat(kindOf(call)).isEqualTo(LlmErrorKind.RETRIES_EXHAUSTED);
            assertThat(server.accepted()).isBetween(1, 2);
            assertThat(server.awaitAllClosed(CLOSE_WITHIN_MILLIS)).as("the budget's time-out closed the connection")
                    .isZero();
        }
    }

    @Test
    void cancellingACallClosesItsConnection() throws Exception {
        try (SilentServer server = SilentServer.start();
                OpenAiCompatibleClient client = client(server.baseUrl(), Duration.ofSeconds(5), MANY_ATTEMPTS,
                        Duration.ofSeconds(60))) {
            CompletableFuture<ChatResponse> call = client.chat(SimulatorClients.request("stalled", "cancelled"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.open() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(server.open()).as("the call reached the server").isEqualTo(1);

            call.cancel(false);

            assertThat(server.awaitAllClosed(CLOSE_WITHIN_MILLIS)).as("the cancel closed the connection").isZero();
        }
    }

    /** A client with short back-offs between its attempts. */
    private static OpenAiCompatibleClient client(String baseUrl, Duration callTimeout, int attempts, Duration budget) {
        LlmClientConfig.Builder config = LlmClientConfig.builder(baseUrl)
                .defaultModel("test-model")
                .callTimeout(callTimeout)
                .maxAttempts(attempts)
                .totalBudget(budget)
                .initialBackoff(Duration.ofMillis(20)).maxBackoff(Duration.ofMillis(50));
        return OpenAiCompatibleClient.builder(config.build()).tokenEstimator(TOKENS).build();
    }

    private static LlmErrorKind kindOf(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        try {
            future.join();
            throw new AssertionError("completed normally");
        } catch (CompletionException e) {
            return ((LlmException) e.getCause()).kind();
        }
    }
}

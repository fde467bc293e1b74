package io.flowsql.llm;

import static io.flowsql.llm.SimulatorClients.fastRetries;
import static io.flowsql.llm.SimulatorClients.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.simulator.Fault;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class OpenAiCompatibleClientTest {

    private static SimulatedLlmServer serverWith(Fault... scripted) {
        return SimulatedLlmServer.start(SimulatorConfig.builder()
                .responder(SimulatorClients.SAMPLE_TASK, SimulatorClients.sampling())
                .retryAfterSeconds(1)
                .hangMillis(3_000)
                .scriptedFaults(scripted)
                .build());
    }

    private static LlmException failureOf(CompletableFuture<ChatResponse> future) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> future.orTimeout(20, java.util.concurrent.TimeUnit.SECONDS).join());
        assertThat(thrown).isInstanceOf(CompletionException.class).hasCauseInstanceOf(LlmException.class);
        return (LlmException) thrown.getCause();
    }

    @Test
    void answersWithUsageStageModelAndSimulatedMark() {
        try (SimulatedLlmServer server = serverWith();
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        fastRetries(server).apiKey("secret-key").stageModel("mmsql", "small-model").build()).build()) {
            ChatResponse response = client.chat(request("mmsql.detect", "How many singers?")).join();
            assertThat(response.text()).startsWith("answer-");
            assertThat(response.simulated()).isTrue();
            assertThat(response.model()).isEqualTo("simulated/small-model");
            assertThat(response.usage().promptTokens()).isPositive();
            assertThat(response.usage().estimated()).isFalse();
            assertThat(response.retries()).isZero();
            RecordedRequest seen = server.requests().get(0);
            assertThat(seen.request().model()).isEqualTo("small-model");
            assertThat(seen.authorization()).isEqualTo("Bearer secret-key");
            client.chat(request("sqlfix.generate", "How many singers?")).join();
            assertThat(server.requests().get(1).request().model()).isEqualTo("test-model");
            assertThat(client.meter().stage("mmsql.detect").calls()).isEqualTo(1);
            assertThat(client.meter().stage("mmsql.detect").promptTokens()).isEqualTo(response.usage().promptTokens());
        }
    }

    @Test
    void rateLimitWaitsAsLongAsRetryAfterSays() {
        try (SimulatedLlmServer server = serverWith(Fault.RATE_LIMITED);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(fastRetries(server).build()).build()) {
            ChatResponse response = client.chat(request("s", "q")).join();
            assertThat(response.retries()).isEqualTo(1);
            List<RecordedRequest> seen = server.requests();
            assertThat(seen).hasSize(2);
            long gapMillis = (seen.get(1).receivedAtNanos() - seen.get(0).receivedAtNanos()) / 1_000_000;
            assertThat(gapMillis).isGreaterThanOrEqualTo(1_000).isLessThan(2_000);
        }
    }

    @Test
    void serverErrorsMalformedBodiesAndEmptyChoicesAreRetried() {
        try (SimulatedLlmServer server = serverWith(Fault.SERVER_ERROR, Fault.UNAVAILABLE, Fault.MALFORMED_JSON,
                Fault.EMPTY_CHOICES);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(fastRetries(server).build()).build()) {
            ChatResponse response = client.chat(request("s", "q")).join();
            assertThat(response.retries()).isEqualTo(4);
            assertThat(response.text()).startsWith("answer-");
            assertThat(server.requestCount()).isEqualTo(5);
            assertThat(client.meter().stage("s").retries()).isEqualTo(4);
        }
    }

    @Test
    void aHangIsCutByTheCallTimeoutAndRetried() {
        try (SimulatedLlmServer server = serverWith(Fault.HANG);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        fastRetries(server).callTimeout(Duration.ofMillis(300)).build()).build()) {
            long start = System.nanoTime();
            ChatResponse response = client.chat(request("s", "q")).join();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(response.retries()).isEqualTo(1);
            assertThat(millis).isGreaterThanOrEqualTo(300).isLessThan(2_000);
        }
    }

    @Test
    void attemptsRunOutIntoATypedError() {
        try (SimulatedLlmServer server = serverWith(Fault.UNAVAILABLE, Fault.UNAVAILABLE, Fault.UNAVAILABLE);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        fastRetries(server).maxAttempts(3).build()).build()) {
            LlmException failure = failureOf(client.chat(request("s", "q")));
            assertThat(failure.kind()).isEqualTo(LlmErrorKind.RETRIES_EXHAUSTED);
            assertThat(failure.attempts()).isEqualTo(3);
            assertThat(server.requestCount()).isEqualTo(3);
            assertThat(client.meter().stage("s").failures()).isEqualTo(1);
        }
    }

    @Test
    void theTimeBudgetEndsACallThatKeepsHanging() {
        SimulatorConfig config = SimulatorConfig.builder().faultRate(Fault.HANG, 1.0).hangMillis(5_000).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(fastRetries(server)
                        .callTimeout(Duration.ofMillis(400)).totalBudget(Duration.ofMillis(1_000)).maxAttempts(100)
                        .build()).build()) {
            long start = System.nanoTime();
            LlmException failure = failureOf(client.chat(request("s", "q")));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(failure.kind()).isEqualTo(LlmErrorKind.RETRIES_EXHAUSTED);
            assertThat(millis).isLessThanOrEqualTo(1_300);
        }
    }

    @Test
    void wrongKeyFailsAtOnceWithoutRetrying() {
        SimulatorConfig config = SimulatorConfig.builder().requiredApiKey("right").build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        fastRetries(server).apiKey("zz-secret-key").build()).build()) {
            LlmException failure = failureOf(client.chat(request("s", "q")));
            assertThat(failure.kind()).isEqualTo(LlmErrorKind.AUTHENTICATION);
            assertThat(server.requestCount()).isEqualTo(1);
            assertThat(failure.getMessage()).doesNotContain("zz-secret-key");
        }
    }

    @Test
    void concurrencyBoundHoldsAtTheServer() {
        SimulatorConfig config = SimulatorConfig.builder().latency(LatencyModel.fixed(50)).slots(64).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        fastRetries(server).maxConcurrency(4).build()).build()) {
            List<CompletableFuture<ChatResponse>> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                calls.add(client.chat(request("s", "q" + i)));
            }
            calls.forEach(CompletableFuture::join);
            assertThat(server.maxConcurrentRequests()).isEqualTo(4);
            assertThat(server.requestCount()).isEqualTo(40);
        }
    }
}

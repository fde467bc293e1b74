package io.flowsql.engine;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.sql.SpiderData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stage never runs on the thread that hands it the request (in the job: a Flink task thread): a stage that blocks
 * in its synchronous part (as SQL, an index build or a file read does) leaves the caller free at once, and it runs on
 * the engine's work pool. What a stage chains on its model call runs on the engine's callback pool, neither the JVM's
 * common pool nor the HTTP client's I/O threads.
 */
class EnginePoolsTest {
    private static final String TASK = "test.callback";

    @TempDir
    Path cacheDir;

    @Test
    void aStageThatBlocksRunsOnTheWorkPoolNotOnTheCallersThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> ranOn = new AtomicReference<>();
        Stage.Local blocking = (ctx, trace) -> {
            ranOn.set(Thread.currentThread().getName());
            try {
                release.await(10, TimeUnit.SECONDS); // a slow query
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (EnginePools pools = EnginePools.of(2, 1)) {
            NamedStage stage = new NamedStage("test.blocking", blocking);
            // on the caller's thread, applyOn would return only after the stage's 10 s wait, with the result done
            CompletableFuture<RequestContext> result = stage.applyOn(pools.work(), new RequestContext());
            assertThat(result).as("the caller is not held by the stage").isNotDone();
            release.countDown();
            assertThat(result.get(10, TimeUnit.SECONDS).isSettled()).isFalse();
            assertThat(ranOn.get()).startsWith("flowsql-work-").isNotEqualTo(Thread.currentThread().getName());
        }
    }

    /**
     * The engine as the job builds it ({@link EngineFactory#shared}, {@code EngineRuntime.build}) calls the simulated
     * server over HTTP on loopback, without and with the response cache in front of the HTTP client. The server takes
     * 200 ms, so the stage chains its continuation before the reply is in and the continuation runs on whichever
     * thread completes the call: without the engine's callback pool that is {@code ForkJoinPool.commonPool-worker-N}
     * (the client's default), and never may it be the client's event loop ({@code flowsql-llm-http-N}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"off", "read-write"})
    void whatAStageChainsOnItsModelCallRunsOnTheEnginesCallbackPool(String cacheMode) throws Exception {
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder()
                     .latency(LatencyModel.fixed(200))
                     .responder(TASK, (request, context) -> Optional.of(List.of("a reply")))
                     .build());
             EngineLease lease = EngineFactory.shared(EngineConfig.of(
                     LlmClientConfig.builder(server.baseUrl()).defaultModel("test-model")
                             .callTimeout(Duration.ofSeconds(5)).totalBudget(Duration.ofSeconds(10)).build(),
                     SpiderData.locator(), "full")
                     .withLlmCache(new LlmCacheSettings(cacheDir.toString(), cacheMode)))) {
            AtomicReference<String> reply = new AtomicReference<>();
            AtomicReference<String> continuedOn = new AtomicReference<>();
            Stage asksTheModel = (ctx, trace) -> lease.engine().llm().chat(request()).thenAccept(response -> {
                reply.set(response.text());
                continuedOn.set(Thread.currentThread().getName());
            });

            RequestContext done = new NamedStage("test.callback", asksTheModel)
                    .applyOn(lease.runtime().work(), new RequestContext()).get(10, TimeUnit.SECONDS);

            assertThat(done.isSettled()).as("the stage ran without failing: %s", done.error).isFalse();
            assertThat(server.requestCount()).isEqualTo(1);
            assertThat(reply.get()).isEqualTo("a reply");
            assertThat(continuedOn.get()).as("the thread the stage's continuation ran on")
                    .startsWith("flowsql-llm-callback-");
        }
    }

    private static ChatRequest request() {
        return ChatRequest.of("test.stage", List.of(
                ChatMessage.system("### Task: " + TASK + "\nAnswer briefly."),
                ChatMessage.user("Database: concert_singer\nQuestion: How many singers are there?")));
    }

    /**
     * Closing the pools waits for a task that is already running (here one that finishes its step after being
     * interrupted, as a query or a log call does): the job closes the task's class loader right after the engine, and
     * a work thread still running then failed with "Trying to access closed classloader" in the soak.
     */
    @Test
    void closeReturnsOnlyOnceTheTasksThatRunHaveEnded() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Thread> worker = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
        EnginePools pools = EnginePools.of(1, 1);
        pools.work().execute(() -> {
            worker.set(Thread.currentThread());
            started.countDown();
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < until) {
                Thread.onSpinWait(); // a step that does not stop at the interrupt
            }
            ended.set(true);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        pools.close();
        assertThat(ended).as("the running task ended before close returned").isTrue();
        worker.get().join(1000);
        assertThat(worker.get().isAlive()).isFalse();
    }
}

package io.flowsql.engine;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.Stage;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stage never runs on the thread that hands it the request (in the job: a Flink task thread): a stage that blocks
 * in its synchronous part (as SQL, an index build or a file read does) leaves the caller free at once, and it runs on
 * the engine's work pool.
 */
class EnginePoolsTest {

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
}

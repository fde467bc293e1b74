package io.flowsql.pipeline;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class PipelineTest {
    private final ExecutorService callbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-llm-callback"));
    private final ExecutorService work = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-work"));
    private CountDownLatch replyMayComplete;

    @AfterEach
    void stop() {
        callbacks.shutdownNow();
        work.shutdownNow();
    }

    @Test
    void withTheWorkPoolAStageAfterAModelReplyRunsOnThePoolNotOnTheThreadThatCompletedTheReply() throws Exception {
        AtomicReference<String> ranOn = new AtomicReference<>();
        assertThat(threadOfStageAfterReply(new Pipeline(strategy(ranOn), work), ranOn)).isEqualTo("test-work");
        assertThat(threadOfStageAfterReply(new Pipeline(strategy(ranOn)), ranOn)).isEqualTo("test-llm-callback");
    }

    private String threadOfStageAfterReply(Pipeline pipeline, AtomicReference<String> ranOn) throws Exception {
        RequestContext ctx = new RequestContext();
        CompletableFuture<RequestContext> running = pipeline.run(ctx);
        replyMayComplete.countDown(); // the reply completes only once the whole chain is built, on the callback thread
        RequestContext done = running.get(10, TimeUnit.SECONDS);
        assertThat(done.isSettled()).as("neither stage settles the request").isFalse();
        return ranOn.get();
    }

    private Strategy strategy(AtomicReference<String> ranOn) {
        replyMayComplete = new CountDownLatch(1);
        CountDownLatch latch = replyMayComplete;
        Stage modelReply = (ctx, trace) -> CompletableFuture.supplyAsync(() -> {
            try {
                latch.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "reply";
        }, callbacks);
        Stage.Local afterReply = (ctx, trace) -> ranOn.set(Thread.currentThread().getName());
        return new Strategy("test", List.of(new NamedStage("model-like", modelReply), new NamedStage("after-reply", afterReply)));
    }
}

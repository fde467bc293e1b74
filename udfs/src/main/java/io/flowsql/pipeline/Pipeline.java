package io.flowsql.pipeline;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Runs a strategy's stages one after another without Flink, skipping stages that do not apply.
 * Used by unit tests, the one-question-at-a-time baseline and anywhere Flink is not wanted; the job
 * runs the very same stages as operators.
 */
public final class Pipeline {
    private final Strategy strategy;
    private final Executor work;

    /** Each stage starts where the previous one completed (tests with a model scripted in memory). */
    public Pipeline(Strategy strategy) {
        this(strategy, null);
    }

    /**
     * Each stage starts on {@code work} (the engine's work pool), as the job's operators do: a stage that follows a model
     * reply never runs its SQL on the thread that completed the reply.
     */
    public Pipeline(Strategy strategy, Executor work) {
        this.strategy = strategy;
        this.work = work;
    }

    public CompletableFuture<RequestContext> run(RequestContext ctx) {
        CompletableFuture<RequestContext> chain = CompletableFuture.completedFuture(ctx);
        for (NamedStage stage : strategy.stages()) {
            chain = chain.thenCompose(c -> !stage.appliesTo(c) ? CompletableFuture.completedFuture(c)
                    : work == null ? stage.apply(c) : stage.applyOn(work, c));
        }
        return chain;
    }
}

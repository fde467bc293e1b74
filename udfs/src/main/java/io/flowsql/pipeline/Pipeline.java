package io.flowsql.pipeline;

import java.util.concurrent.CompletableFuture;

/**
 * Runs a strategy's stages one after another without Flink, skipping stages that do not apply.
 * Used by unit tests, the one-question-at-a-time baseline and anywhere Flink is not wanted; the job
 * runs the very same stages as operators.
 */
public final class Pipeline {
    private final Strategy strategy;

    public Pipeline(Strategy strategy) {
        this.strategy = strategy;
    }

    public CompletableFuture<RequestContext> run(RequestContext ctx) {
        CompletableFuture<RequestContext> chain = CompletableFuture.completedFuture(ctx);
        for (NamedStage stage : strategy.stages()) {
            chain = chain.thenCompose(c -> stage.appliesTo(c) ? stage.apply(c) : CompletableFuture.completedFuture(c));
        }
        return chain;
    }
}

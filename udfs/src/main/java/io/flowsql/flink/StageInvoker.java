package io.flowsql.flink;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Applies one stage to one request the way every stage operator must: skip what does not apply, never
 * let an exception escape (it becomes a failed context naming the stage), and report metrics.
 */
public final class StageInvoker {
    private final String stageName;
    private final String defaultStrategy;
    private final BoundStages stages;
    private final StageMetrics metrics;

    public StageInvoker(String stageName, String defaultStrategy, BoundStages stages, StageMetrics metrics) {
        this.stageName = stageName;
        this.defaultStrategy = defaultStrategy;
        this.stages = stages;
        this.metrics = metrics;
    }

    /**
     * The stage this request's preset runs under this name, or null when the request passes through
     * untouched. A request the stages cannot even look at (an unknown preset) is failed here, by this stage.
     */
    public Stage applicableStage(RequestContext ctx) {
        String strategy = ctx.strategy == null ? defaultStrategy : ctx.strategy;
        try {
            Stage stage = stages.find(strategy, stageName);
            return stage != null && stage.appliesTo(ctx) ? stage : null;
        } catch (RuntimeException e) {
            if (!ctx.isSettled()) {
                ctx.fail(stageName, describe(e));
            }
            return null;
        }
    }

    /**
     * Runs {@code stage}, already found by {@link #applicableStage}, on {@code ctx}; the future always completes
     * normally. The stage is started on the engine's work pool, so whatever it does before its first LLM call (SQL,
     * an index build, reading files) never runs on the calling Flink task thread; what it chains on LLM calls runs
     * on the engine's callback pool.
     */
    public CompletableFuture<RequestContext> apply(Stage stage, RequestContext ctx) {
        long start = System.currentTimeMillis();
        int traceBefore = ctx.trace.size();
        CompletableFuture<RequestContext> running;
        try {
            running = CompletableFuture.supplyAsync(() -> stage.apply(ctx), stages.work()).thenCompose(f -> f);
        } catch (RuntimeException e) { // the pool refused the task (the engine is closing)
            running = CompletableFuture.failedFuture(e);
        }
        return running.handle((result, error) -> {
            RequestContext out = result != null ? result : ctx;
            if (error != null) {
                out.fail(stageName, describe(error));
            }
            metrics.finished(out, traceBefore, System.currentTimeMillis() - start);
            return out;
        });
    }

    public String stageName() {
        return stageName;
    }

    public StageMetrics metrics() {
        return metrics;
    }

    static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }
}

package io.flowsql.pipeline;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A stage under the name the registry declares for it: decides whether it runs for a request and runs it so that it
 * never throws (see {@link StageGuard}). The plain-Java {@link Pipeline} and the Flink stage operators both run stages
 * through this one class.
 */
public record NamedStage(String name, Stage stage) {

    /** True unless the request switched this stage off or the stage has nothing to do for it (see {@link Stage#appliesTo}). */
    public boolean appliesTo(RequestContext ctx) {
        return !ctx.disabledStages.contains(name) && stage.appliesTo(ctx);
    }

    /** Runs the stage on {@code ctx} under a fresh trace entry; the future always completes normally. */
    public CompletableFuture<RequestContext> apply(RequestContext ctx) {
        return StageGuard.run(name, ctx, trace -> stage.run(ctx, trace));
    }

    /**
     * As {@link #apply}, started on {@code pool}: whatever the stage does before its first model call (SQL, an index
     * build, reading files) never runs on the calling thread (in the job, a Flink task thread). A pool that refuses
     * the work (closing) fails the request; the future always completes normally.
     */
    public CompletableFuture<RequestContext> applyOn(Executor pool, RequestContext ctx) {
        try {
            return CompletableFuture.supplyAsync(() -> apply(ctx), pool).thenCompose(f -> f);
        } catch (RejectedExecutionException e) {
            ctx.fail(name, "stage work refused: " + e.getMessage());
            return CompletableFuture.completedFuture(ctx);
        }
    }
}

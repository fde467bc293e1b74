package io.flowsql.pipeline;

import java.util.concurrent.CompletableFuture;

/**
 * The work of one step of a preset, with no name of its own: the stage registry
 * ({@link io.flowsql.engine.StageRegistry}) declares each stage's name, kind and presets and builds the stage;
 * {@link NamedStage} runs it under that name (trace entry, timing, failures). A stage reads what earlier stages wrote
 * into the request, adds its own part, meters its model calls into {@code trace}, and may fail its future: the runner
 * turns a failure into {@link RequestContext#fail}.
 */
public interface Stage {

    /**
     * Whether the stage has anything to do for this request (default: not settled yet). A stage switched off by the
     * request is never run, whatever this says.
     */
    default boolean appliesTo(RequestContext ctx) {
        return !ctx.isSettled();
    }

    /** Does the stage's work for {@code ctx}; {@code trace} is this stage's trace entry, named after it. */
    CompletableFuture<?> run(RequestContext ctx, StageTrace trace);

    /** Runs this stage alone under {@code name}, as {@link NamedStage} runs it (for tests and tools that call one stage). */
    default CompletableFuture<RequestContext> applyAs(String name, RequestContext ctx) {
        return new NamedStage(name, this).apply(ctx);
    }

    /** A stage whose work is local and synchronous (no model call). */
    interface Local extends Stage {
        void runLocal(RequestContext ctx, StageTrace trace);

        @Override
        default CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
            runLocal(ctx, trace);
            return CompletableFuture.completedFuture(null);
        }
    }
}

package io.flowsql.pipeline;

import java.util.concurrent.CompletableFuture;

/**
 * One step of a strategy. The plain-Java {@link Pipeline} runs stages in order; the Flink job runs each
 * as its own async operator. A stage never throws: a failure completes the future with the context
 * marked failed (see {@link RequestContext#fail}).
 */
public interface Stage {

    /** A stable name such as "mmsql.detect" or "opensearch.vote"; used for uids, metrics, traces and ablation flags. */
    String name();

    /** What kind of work this stage does, so the job can place it (LLM stages and candidate execution get their own operators). */
    default StageKind kind() {
        return StageKind.LLM;
    }

    /** Whether this stage has anything to do for the request (default: not settled and not switched off). */
    default boolean appliesTo(RequestContext ctx) {
        return !ctx.isSettled() && !ctx.disabledStages.contains(name());
    }

    CompletableFuture<RequestContext> apply(RequestContext ctx);
}

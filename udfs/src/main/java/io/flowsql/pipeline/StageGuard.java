package io.flowsql.pipeline;

import io.flowsql.journal.JournalScope;
import io.flowsql.llm.LlmException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Runs one stage's work for one request so that the stage never throws: it opens the stage's trace entry,
 * times it, and turns any exception (thrown or in the future) into {@link RequestContext#fail}.
 */
public final class StageGuard {
    private StageGuard() {}

    /** Runs {@code body} with a fresh trace entry for {@code stage}; the body writes its findings into the context. */
    public static CompletableFuture<RequestContext> run(String stage, RequestContext ctx,
                                                        Function<StageTrace, CompletableFuture<?>> body) {
        StageTrace trace = new StageTrace(stage);
        String journalId = ctx.journalId();
        if (journalId != null) {
            trace.journalUnder(new JournalScope(journalId, stage));
        }
        trace.cancellation = ctx.cancellation;
        long started = System.nanoTime();
        CompletableFuture<?> work;
        try {
            work = body.apply(trace);
        } catch (RuntimeException e) {
            work = CompletableFuture.failedFuture(e);
        }
        return work.handle((ignored, error) -> {
            trace.latencyMillis = Math.max(trace.latencyMillis, (System.nanoTime() - started) / 1_000_000);
            if (error != null) {
                Throwable cause = unwrap(error);
                trace.note = append(trace.note, "failed: " + reason(cause));
                ctx.fail(stage, reason(cause));
            }
            ctx.trace.add(trace);
            return ctx;
        });
    }

    /** Runs local (non-LLM) work synchronously under the same guarantees. */
    public static CompletableFuture<RequestContext> runLocal(String stage, RequestContext ctx,
                                                             java.util.function.Consumer<StageTrace> body) {
        return run(stage, ctx, trace -> {
            body.accept(trace);
            return CompletableFuture.completedFuture(null);
        });
    }

    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static String reason(Throwable cause) {
        if (cause instanceof LlmException llm) {
            return llm.getMessage();
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static String append(String note, String more) {
        return note == null || note.isEmpty() ? more : note + "; " + more;
    }
}

package io.flowsql.pipeline;

import io.flowsql.journal.JournalScope;
import io.flowsql.llm.LlmException;
import io.flowsql.sql.DatabaseUnavailable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A stage under the name the registry declares for it: decides whether it runs for a request, and runs it so that it
 * never throws: a fresh trace entry named after the stage (journaled under the request, carrying its cancellation),
 * timed, with the stage's {@link StageOutcome}; an exception, thrown or in the future, fails the request with its
 * {@link FailureKind}. The plain-Java {@link Pipeline} and the Flink stage operators both run stages through this class.
 */
public record NamedStage(String name, Stage stage) {

    /** True unless the request switched this stage off or the stage has nothing to do for it (see {@link Stage#appliesTo}). */
    public boolean appliesTo(RequestContext ctx) {
        return !ctx.disabledStages.contains(name) && stage.appliesTo(ctx);
    }

    /** Runs the stage on {@code ctx} under a fresh trace entry; the future always completes normally. */
    public CompletableFuture<RequestContext> apply(RequestContext ctx) {
        return apply(ctx, null);
    }

    private CompletableFuture<RequestContext> apply(RequestContext ctx, Executor pool) {
        StageTrace trace = new StageTrace(name);
        trace.work = pool;
        String journalId = ctx.journalId();
        if (journalId != null) {
            trace.journalUnder(new JournalScope(journalId, name));
        }
        trace.cancellation = ctx.cancellation;
        KnowledgeInPrompts.offerTo(ctx, trace);
        boolean settledBefore = ctx.isSettled();
        long started = System.nanoTime();
        CompletableFuture<?> work;
        try {
            work = stage.run(ctx, trace);
        } catch (RuntimeException e) {
            work = CompletableFuture.failedFuture(e);
        }
        return work.handle((ignored, error) -> {
            trace.latencyMillis = Math.max(trace.latencyMillis, (System.nanoTime() - started) / 1_000_000);
            if (error != null) {
                Throwable cause = unwrap(error);
                trace.note = append(trace.note, "failed: " + reason(cause));
                if (cause instanceof LlmException llm) {
                    trace.modelError = llm.kind();
                }
                ctx.fail(name, kindOf(cause), reason(cause));
            }
            boolean failedHere = ctx.hasStatus(AnswerStatus.FAILED) && name.equals(ctx.failedStage);
            trace.outcome = failedHere ? StageOutcome.FAILED
                    : ctx.isSettled() && !settledBefore ? StageOutcome.SETTLED : StageOutcome.COMPLETED;
            trace.failure = trace.outcome == StageOutcome.FAILED ? ctx.failure : null;
            KnowledgeInPrompts.keep(ctx, trace);
            ctx.trace.add(trace);
            return ctx;
        });
    }

    /**
     * As {@link #apply}, started on {@code pool}: whatever the stage does before its first model call (SQL, an index
     * build, reading files) never runs on the calling thread (in the job, a Flink task thread), and what it does after
     * a model reply that blocks (SQL) goes back to {@code pool} ({@link StageSql#offload}), never staying on the thread
     * that completed the reply. A pool that refuses the work (closing) fails the request; the future always completes
     * normally.
     */
    public CompletableFuture<RequestContext> applyOn(Executor pool, RequestContext ctx) {
        try {
            return CompletableFuture.supplyAsync(() -> apply(ctx, pool), pool).thenCompose(f -> f);
        } catch (RejectedExecutionException e) {
            ctx.fail(name, FailureKind.INTERNAL, "stage work refused: " + e.getMessage());
            return CompletableFuture.completedFuture(ctx);
        }
    }

    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static FailureKind kindOf(Throwable cause) {
        if (cause instanceof LlmException) {
            return FailureKind.MODEL;
        }
        return unavailable(cause) != null ? FailureKind.DATABASE_UNAVAILABLE : FailureKind.INTERNAL;
    }

    /** The {@link DatabaseUnavailable} behind a failure (a stage may have wrapped it), or null. */
    private static DatabaseUnavailable unavailable(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DatabaseUnavailable u) {
                return u;
            }
        }
        return null;
    }

    private static String reason(Throwable cause) {
        if (cause instanceof LlmException llm) {
            return llm.getMessage();
        }
        DatabaseUnavailable u = unavailable(cause);
        if (u != null) {
            return u.getMessage();
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static String append(String note, String more) {
        return note == null || note.isEmpty() ? more : note + "; " + more;
    }
}

package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.pipeline.EveryCandidateFailed;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The {@code sqlfix.refine} stage: for a flagged SQL, lets the refiner choose or repair and makes its answer
 * the final SQL. The refiner is shown every distinct candidate the request holds: the base generator's samples
 * (not only the first, which the reviewer checked) and the crafted ones. When every attempt fails it falls back to
 * the first of them that returned rows, else keeps the reviewed SQL if it ran, else fails the request.
 */
public final class SqlRefinerStage implements Stage {
    private final SqlRefiner refiner;
    private final Function<RequestContext, PromptFields> frames;

    public SqlRefinerStage(SqlRefiner refiner, Function<RequestContext, PromptFields> frames) {
        this.refiner = refiner;
        this.frames = frames;
    }

    @Override
    public boolean appliesTo(RequestContext ctx) {
        return Stage.super.appliesTo(ctx) && ReviewNotes.flagged(ctx);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        List<Candidate> crafted = distinct(ctx.candidates);
        FailureMemory failures = FailureMemory.of(ctx);
        return refiner.refine(frames.apply(ctx), ctx.tenant, ReviewNotes.reviewedSql(ctx), ReviewNotes.reasons(ctx),
                        crafted, failures, LiveFeedback.repairs(ctx), trace)
                .thenAccept(refined -> {
                    failures.saveTo(ctx);
                    settle(ctx, refined, crafted, trace);
                });
    }

    private void settle(RequestContext ctx, Optional<Refinement> refined, List<Candidate> crafted, StageTrace trace) {
        if (refined.isPresent()) {
            ctx.finalSql = refined.get().sql();
            trace.note = "chose " + refined.get().choice() + " after " + refined.get().attempts() + " attempt(s)";
            return;
        }
        Optional<Candidate> working = crafted.stream().filter(c -> c.executed && c.error == null && c.rowCount > 0).findFirst();
        if (working.isPresent()) {
            ctx.finalSql = working.get().sql;
            trace.note = "attempts exhausted; fell back to " + working.get().source;
        } else if (!reviewedSqlFailed(ctx)) {
            trace.note = "attempts exhausted; kept the reviewed SQL";
        } else if (!EveryCandidateFailed.failIfSo(ctx, trace.stage)) {
            ctx.fail(trace.stage, FailureKind.NO_SQL, "no working SQL after the refiner's attempts");
        }
    }

    /** The candidates with a SQL, the first of each distinct SQL (whitespace and case aside), in order. */
    static List<Candidate> distinct(List<Candidate> candidates) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        return candidates.stream().filter(c -> c.sql != null && !c.sql.isBlank())
                .filter(c -> seen.add(SqlOneLine.of(c.sql).toLowerCase(java.util.Locale.ROOT)))
                .toList();
    }

    /** True when there was no SQL to review or it did not run (the reviewer flagged it for its execution error). */
    private static boolean reviewedSqlFailed(RequestContext ctx) {
        return ReviewNotes.reviewedSql(ctx) == null
                || ReviewNotes.reasons(ctx).stream().anyMatch(r -> r.startsWith(SqlReviewer.FAILED_PREFIX));
    }
}

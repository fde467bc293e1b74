package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ExecutionResult;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The {@code sqlfix.review} stage: reviews the request's current answer (the final SQL, else the vote's
 * winner, else the first executed candidate), makes it the final SQL for now, and leaves the verdict for
 * the crafter and refiner; with no SQL at all the verdict is "flagged" so they write one.
 */
public final class SqlReviewStage implements Stage {
    private final SqlReviewer reviewer;
    private final StageSql database;
    private final Function<RequestContext, PromptFields> frames;

    public SqlReviewStage(SqlReviewer reviewer, StageSql database, Function<RequestContext, PromptFields> frames) {
        this.reviewer = reviewer;
        this.database = database;
        this.frames = frames;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        Optional<String> sql = sqlUnderReview(ctx);
        if (sql.isEmpty()) {
            ReviewNotes.write(ctx, null, ReviewVerdict.flaggedByExecution("no SQL was produced"));
            trace.note = "flagged: no SQL to review";
            return CompletableFuture.completedFuture(null);
        }
        ctx.finalSql = sql.get();
        return reviewer.review(frames.apply(ctx), sql.get(), executionOf(ctx, sql.get(), trace), trace)
                .thenAccept(verdict -> {
                    ReviewNotes.write(ctx, sql.get(), verdict);
                    trace.note = verdict.flagged() ? "flagged: " + String.join("; ", verdict.reasons()) : "correct";
                });
    }

    /** The result the candidates already recorded for this SQL, else a fresh execution (e.g. a final SQL set by a stage). */
    private ExecutionResult executionOf(RequestContext ctx, String sql, StageTrace trace) {
        return ctx.candidates.stream().filter(c -> c.executed && sql.equals(c.sql)).findFirst()
                .map(CandidateRunner::recorded)
                .orElseGet(() -> database.execute(StageSql.Scope.of(ctx, trace), sql));
    }

    /** The final SQL when set, else the candidate with most votes, else the first one that ran without error. */
    static Optional<String> sqlUnderReview(RequestContext ctx) {
        if (ctx.finalSql != null && !ctx.finalSql.isBlank()) {
            return Optional.of(ctx.finalSql);
        }
        Optional<Candidate> voted = ctx.candidates.stream().filter(c -> c.votes > 0 && c.sql != null)
                .max(Comparator.comparingInt(c -> c.votes));
        if (voted.isPresent()) {
            return Optional.of(voted.get().sql);
        }
        return ctx.candidates.stream().filter(c -> c.sql != null && c.executed && c.error == null).findFirst()
                .or(() -> ctx.candidates.stream().filter(c -> c.sql != null).findFirst())
                .map(c -> c.sql);
    }
}

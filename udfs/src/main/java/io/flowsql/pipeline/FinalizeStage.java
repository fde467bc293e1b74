package io.flowsql.pipeline;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Settles a request that reached the end of its strategy: the SQL an earlier stage chose (or else the
 * best candidate: runs cleanly with rows, then cleanly, then at all, latest first) becomes the answer;
 * without any SQL the request fails with the reason, and so it does when candidates ran and every one failed in
 * the database (error kind {@code sql_error}, the last candidate's error): SQL that ran only to fail is no answer.
 */
public final class FinalizeStage implements Stage.Local {

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        if (EveryCandidateFailed.failIfSo(ctx, trace.stage)) {
            trace.note = "every candidate failed";
            return;
        }
        Optional<Candidate> chosen = chosenCandidate(ctx);
        if (ctx.finalSql == null || ctx.finalSql.isBlank()) {
            ctx.finalSql = chosen.map(c -> c.sql).orElse(null);
        }
        if (ctx.finalSql == null || ctx.finalSql.isBlank()) {
            ctx.finalSql = null;
            ctx.fail(trace.stage, FailureKind.NO_SQL, ctx.candidates.isEmpty()
                    ? "no stage produced SQL" : "none of " + ctx.candidates.size() + " candidates has SQL");
            trace.note = "no SQL";
        } else {
            ctx.settle(AnswerStatus.ANSWERED);
            chosen.ifPresent(c -> {
                ctx.notes.put("final.source", String.valueOf(c.source));
                if (c.error != null) {
                    ctx.notes.put("final.error", c.error);
                }
            });
            trace.note = chosen.map(c -> "from " + c.source).orElse("final SQL without candidate");
        }
    }

    /** The candidate whose SQL is the final SQL, or the best candidate when no stage chose one. */
    static Optional<Candidate> chosenCandidate(RequestContext ctx) {
        List<Candidate> withSql = ctx.candidates.stream().filter(c -> c.sql != null && !c.sql.isBlank()).toList();
        if (ctx.finalSql != null && !ctx.finalSql.isBlank()) {
            for (int i = withSql.size() - 1; i >= 0; i--) {
                if (withSql.get(i).sql.strip().equals(ctx.finalSql.strip())) {
                    return Optional.of(withSql.get(i));
                }
            }
            return Optional.empty();
        }
        Comparator<Integer> byQualityThenRecency = Comparator
                .comparingInt((Integer i) -> quality(withSql.get(i)))
                .thenComparingInt(i -> i);
        return java.util.stream.IntStream.range(0, withSql.size()).boxed()
                .max(byQualityThenRecency)
                .map(withSql::get);
    }

    private static int quality(Candidate c) {
        if (c.executed && c.error == null && c.rowCount > 0) {
            return 3;
        }
        if (c.executed && c.error == null) {
            return 2;
        }
        return c.executed ? 0 : 1;
    }
}

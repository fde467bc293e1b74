package io.flowsql.agents.opensearch;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.Locale;
import java.util.stream.Collectors;

/** Runs the vote over the executed candidates, makes the winner the final SQL and records votes and agreement in the notes. */
public final class OpenSearchVoteStage implements Stage.Local {
    private final ResultVote vote = new ResultVote();

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        if (ctx.candidates.isEmpty()) {
            throw new IllegalStateException("no candidates to vote on");
        }
        ResultVote.Outcome outcome = vote.vote(ctx.candidates);
        outcome.winner().ifPresent(w -> {
            ctx.finalSql = w.sql;
            ctx.notes.put("vote.winner", w.source);
        });
        ctx.notes.put("vote.votes", ctx.candidates.stream()
                .map(c -> c.source + "=" + c.votes).collect(Collectors.joining(",")));
        ctx.notes.put("vote.agreement", String.format(Locale.ROOT, "%.2f", outcome.agreement()));
        trace.note = "winner " + outcome.winner().map(c -> c.source).orElse("-") + " with "
                + outcome.winnerVotes() + "/" + ctx.candidates.size();
    }
}

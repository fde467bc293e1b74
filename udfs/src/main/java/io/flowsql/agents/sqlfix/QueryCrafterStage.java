package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** The {@code sqlfix.craft} stage: for a flagged SQL, adds the crafter's candidates "sqlfix.craft#i" (one per paraphrase) for execution. */
public final class QueryCrafterStage implements Stage {
    /** Candidate sources of this stage start with this. */
    public static final String SOURCE = "sqlfix.craft#";

    private final QueryCrafter crafter;
    private final Function<RequestContext, PromptFields> frames;
    private final int k;

    public QueryCrafterStage(QueryCrafter crafter, Function<RequestContext, PromptFields> frames, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("the crafter needs k >= 1 paraphrases, got " + k);
        }
        this.crafter = crafter;
        this.frames = frames;
        this.k = k;
    }

    @Override
    public boolean appliesTo(RequestContext ctx) {
        return Stage.super.appliesTo(ctx) && ReviewNotes.flagged(ctx);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return crafter
                .craft(frames.apply(ctx), ReviewNotes.reviewedSql(ctx), ReviewNotes.reasons(ctx), k, trace)
                .thenAccept(crafted -> add(ctx, crafted, trace));
    }

    private static void add(RequestContext ctx, List<CraftedQuery> crafted, io.flowsql.pipeline.StageTrace trace) {
        int added = 0;
        for (int i = 0; i < crafted.size(); i++) {
            CraftedQuery q = crafted.get(i);
            if (q.hasSql()) {
                ctx.candidates.add(new Candidate(SOURCE + (i + 1), q.sql()));
                added++;
            }
        }
        trace.note = added + " of " + crafted.size() + " paraphrases gave SQL";
    }
}

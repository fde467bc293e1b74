package io.flowsql.knowledge;

import io.flowsql.pipeline.KnowledgeInPrompts;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.concurrent.CompletableFuture;

/**
 * A stage that first settles which knowledge its request carries by similarity ({@link SimilarKnowledge}), when the
 * {@code knowledge} operator offered candidates, then runs: so the first stage a request meets pays the embedding call
 * (in its trace) and every prompt from then on shows the entries. The stage's own work resumes on its work pool.
 */
public record KnowledgeFirst(Stage stage, SimilarKnowledge similar) implements Stage {

    @Override
    public boolean appliesTo(RequestContext ctx) {
        return stage.appliesTo(ctx);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        if (!ctx.notes.containsKey(KnowledgeCandidates.NOTE)) {
            return stage.run(ctx, trace);
        }
        return similar.resolve(ctx, trace).thenComposeAsync(ignored -> {
            KnowledgeInPrompts.offerTo(ctx, trace);
            return stage.run(ctx, trace);
        }, trace.work != null ? trace.work : Runnable::run);
    }
}

package io.flowsql.agents.mmsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code mmsql.rewrite}: MMSQL's rewriter turns a follow-up into a self-contained question from the dialogue so
 * far ({@code notes["mmsql.rewritten"]}, shown to the selector, decomposer and refiner beside the user's own
 * words). A first turn has nothing to lean on and is passed through without a model call.
 */
public final class RewriteStage implements Stage {
    private final AgentCall call;
    private final SchemaContext schemas;
    private final boolean rewriteByModel;
    private final PromptPair prompt = PromptPair.load("mmsql/rewrite");

    public RewriteStage(AgentCall call, SchemaContext schemas) {
        this(call, schemas, true);
    }

    /** @param rewriteByModel false: pass every turn through (the official code comments its rewriter out) */
    public RewriteStage(AgentCall call, SchemaContext schemas, boolean rewriteByModel) {
        this.call = call;
        this.schemas = schemas;
        this.rewriteByModel = rewriteByModel;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        if (!rewriteByModel) {
            trace.note = "rewriter off (as the official code): the turn as written";
            return CompletableFuture.completedFuture(null);
        }
        if (ctx.history.isEmpty()) {
            trace.note = "first turn: nothing to rewrite";
            return CompletableFuture.completedFuture(null);
        }
        return call.ask(prompt.request(schemas.promptFields(ctx)), RewriteStage::parse, trace).thenAccept(r -> {
            ctx.notes.put(MmsqlFields.REWRITTEN, r);
            trace.note = r.equalsIgnoreCase(ctx.question.strip()) ? "unchanged" : "rewritten: " + r;
        });
    }

    static Optional<String> parse(String text) {
        return ModelOutput.json(text).map(j -> j.path("rewritten")).filter(JsonNode::isTextual)
                .map(JsonNode::asText).map(String::strip).filter(s -> !s.isEmpty());
    }
}

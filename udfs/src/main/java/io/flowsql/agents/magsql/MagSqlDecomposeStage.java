package io.flowsql.agents.magsql;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;

/** Runs the Targets-Conditions Decomposer and leaves the cumulative sub-questions in the context. */
public final class MagSqlDecomposeStage implements Stage {
    private final TargetsConditionsDecomposer decomposer;
    private final SchemaContext schemas;

    public MagSqlDecomposeStage(TargetsConditionsDecomposer decomposer, SchemaContext schemas) {
        this.decomposer = decomposer;
        this.schemas = schemas;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return decomposer.decompose(schemas.promptFields(ctx), trace)
                .thenAccept(d -> {
                    ctx.subQuestions = new ArrayList<>(d.subQuestions());
                    ctx.notes.put("magsql.targets", String.join(" | ", d.targets()));
                    ctx.notes.put("magsql.conditions", String.join(" | ", d.conditions()));
                    trace.note = d.subQuestions().size() + " sub-questions";
                });
    }
}

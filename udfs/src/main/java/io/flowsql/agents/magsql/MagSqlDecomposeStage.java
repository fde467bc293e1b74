package io.flowsql.agents.magsql;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.StageGuard;
import io.flowsql.agents.common.StageNames;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
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
    public String name() {
        return StageNames.MAGSQL_DECOMPOSE;
    }

    @Override
    public CompletableFuture<RequestContext> apply(RequestContext ctx) {
        return StageGuard.run(name(), ctx, trace -> decomposer.decompose(schemas.promptFields(ctx), trace)
                .thenAccept(d -> {
                    ctx.subQuestions = new ArrayList<>(d.subQuestions());
                    ctx.notes.put("magsql.targets", String.join(" | ", d.targets()));
                    ctx.notes.put("magsql.conditions", String.join(" | ", d.conditions()));
                    trace.note = d.subQuestions().size() + " sub-questions";
                }));
    }
}

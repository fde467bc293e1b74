package io.flowsql.agents.magsql;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.concurrent.CompletableFuture;

/** Runs MAG-SQL's Soft Schema Linker for a request and leaves the soft schema, linked columns and values in the context. */
public final class MagSqlLinkStage implements Stage {
    private final SoftSchemaLinker linker;
    private final SchemaContext schemas;

    public MagSqlLinkStage(SoftSchemaLinker linker, SchemaContext schemas) {
        this.linker = linker;
        this.schemas = schemas;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return linker.link(schemas.doors().door(ctx.dbId, ctx.tenant), schemas.schema(ctx), schemas.promptFields(ctx), trace)
                .thenAccept(linked -> {
                    ctx.schemaText = linked.schemaText();
                    ctx.linkedColumns = new java.util.ArrayList<>(linked.linkedColumns().stream().map(Object::toString).toList());
                    ctx.matchedValues = new java.util.ArrayList<>(linked.matchedValues());
                    ctx.notes.put("magsql.link.skipped", String.valueOf(linked.skipped()));
                });
    }
}

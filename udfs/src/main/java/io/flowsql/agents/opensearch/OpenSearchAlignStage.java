package io.flowsql.agents.opensearch;

import io.flowsql.pipeline.StageGuard;
import io.flowsql.agents.common.StageNames;
import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageKind;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import java.util.concurrent.CompletableFuture;

/** Aligns every candidate not yet executed (values and style) before execution, and notes which rules changed which candidate. */
public final class OpenSearchAlignStage implements Stage {
    private final ConsistencyAligner aligner;
    private final SqliteSchemaCatalog catalog;

    public OpenSearchAlignStage(ConsistencyAligner aligner, SqliteSchemaCatalog catalog) {
        this.aligner = aligner;
        this.catalog = catalog;
    }

    @Override
    public String name() {
        return StageNames.OPENSEARCH_ALIGN;
    }

    @Override
    public StageKind kind() {
        return StageKind.LOCAL;
    }

    @Override
    public CompletableFuture<RequestContext> apply(RequestContext ctx) {
        return StageGuard.runLocal(name(), ctx, trace -> {
            DatabaseSchema schema = catalog.schema(ctx.dbId);
            int changed = 0;
            for (Candidate candidate : ctx.candidates) {
                if (candidate.executed || candidate.sql == null) {
                    continue;
                }
                ConsistencyAligner.Aligned aligned = aligner.align(candidate.sql, schema);
                if (aligned.changed()) {
                    candidate.sql = aligned.sql();
                    ctx.notes.put("align." + candidate.source, String.join(",", aligned.appliedRules()));
                    changed++;
                }
            }
            trace.note = "aligned " + changed + " of " + ctx.candidates.size();
        });
    }
}

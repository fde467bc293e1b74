package io.flowsql.agents.opensearch;

import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.catalog.SchemaCatalog;

/** Aligns every candidate not yet executed (values and style) before execution, and notes which rules changed which candidate. */
public final class OpenSearchAlignStage implements Stage.Local {
    private final ConsistencyAligner aligner;
    private final SchemaCatalog catalog;

    public OpenSearchAlignStage(ConsistencyAligner aligner, SchemaCatalog catalog) {
        this.aligner = aligner;
        this.catalog = catalog;
    }

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        DatabaseSchema schema = catalog.schema(ctx.dbId);
        int changed = 0;
        for (Candidate candidate : ctx.candidates) {
            if (candidate.executed || candidate.sql == null) {
                continue;
            }
            ConsistencyAligner.Aligned aligned = aligner.align(candidate.sql, schema, trace.cancellation);
            if (aligned.changed()) {
                candidate.sql = aligned.sql();
                ctx.notes.put("align." + candidate.source, String.join(",", aligned.appliedRules()));
                changed++;
            }
        }
        trace.note = "aligned " + changed + " of " + ctx.candidates.size();
    }
}

package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;

/** The prompt fields of MMSQL's own agents: the shared ones plus the rewriter's self-contained question. */
final class MmsqlFields {
    /** Note holding the rewriter's self-contained form of the turn. */
    static final String REWRITTEN = "mmsql.rewritten";

    private MmsqlFields() {}

    static PromptFields of(RequestContext ctx, SchemaContext schemas) {
        return schemas.promptFields(ctx).with("rewritten", SchemaContext.oneLine(rewritten(ctx)));
    }

    /** The rewritten question when the rewriter ran, else the question itself. */
    static String rewritten(RequestContext ctx) {
        String r = ctx.notes.get(REWRITTEN);
        return r == null || r.isBlank() ? ctx.question : r;
    }
}

package io.flowsql.agents.retrieve;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.retrieve.RetrievalQuery;
import io.flowsql.sql.retrieve.RetrievedSchema;
import io.flowsql.sql.retrieve.SchemaRetriever;
import java.util.List;

/**
 * {@code schema.retrieve} (LOCAL, first in every preset): bounds the schema the question's prompts show. From the
 * tables the question's access policy lets it see, {@link SchemaRetriever} keeps those that fit the token budget
 * ({@code schema.token-budget}), best first; when the whole visible schema fits, nothing is cut and the agents see
 * what they saw before. The kept tables go to {@link RequestContext#retrievedTables} (read by {@link SchemaContext})
 * and the trace note says what was kept, of how much. In a dialogue, the schema namespaces the latest turn's SQL read
 * route a follow-up ({@link RetrievalQuery#afterTurnIn}). The visible schema is filtered before ranking, so a
 * tenant's policy decides what retrieval may choose from.
 */
public final class SchemaRetrieveStage implements Stage.Local {
    /** Table names the trace note lists at most. */
    static final int NOTE_TABLES = 40;

    private final SchemaContext schemas;
    private final SchemaRetriever retriever;
    private final int valueMatches;

    /** Values are looked up through the request's door ({@link SchemaContext#doors}): only the visible tables' values. */
    public SchemaRetrieveStage(SchemaContext schemas, SchemaRetriever retriever, int valueMatches) {
        this.schemas = schemas;
        this.retriever = retriever;
        this.valueMatches = valueMatches;
    }

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        DatabaseSchema visible = schemas.visibleSchema(ctx);
        List<ValueMatch> found = List.of();
        if (!retriever.fitsWhole(visible)) {
            String text = ctx.evidence == null ? ctx.question : ctx.question + " " + ctx.evidence;
            found = schemas.doors().door(ctx.dbId, ctx.tenant)
                    .values(text, Math.max(valueMatches, SchemaRetriever.VALUE_MATCHES));
        }
        RetrievalQuery query = RetrievalQuery.of(ctx.question, ctx.evidence, found);
        if (!retriever.fitsWhole(visible)) {
            query = query.afterTurnIn(SchemaRetriever.namespacesIn(previousSql(ctx), visible));
        }
        RetrievedSchema retrieved = retriever.retrieve(visible, query);
        ctx.retrievedTables = retrieved.cut() ? retrieved.tableNames() : null;
        ctx.retrievedBrief = retrieved.cut() && !retrieved.briefTables().isEmpty() ? retrieved.briefTables() : null;
        String note = retrieved.describe(retriever.budget());
        List<String> names = retrieved.tableNames();
        if (retrieved.cut() && names.size() > NOTE_TABLES) {
            note = note.substring(0, note.indexOf(": ") + 2) + String.join(", ", names.subList(0, NOTE_TABLES))
                    + ", … (" + (names.size() - NOTE_TABLES) + " more)";
        }
        trace.note = note;
    }

    /** The SQL of the dialogue's latest turn that has one (its schema routes a follow-up), or null. */
    private static String previousSql(RequestContext ctx) {
        for (int i = ctx.history == null ? -1 : ctx.history.size() - 1; i >= 0; i--) {
            if (ctx.history.get(i).sql != null && !ctx.history.get(i).sql.isBlank()) {
                return ctx.history.get(i).sql;
            }
        }
        return null;
    }
}

package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ValueMatch;
import java.util.List;

/**
 * The database values OpenSearch-SQL's prompts show: those linking already found, else the value index's hits for the
 * question, looked up through the request's door (only tables its tenant may see) and kept to the tables the request's
 * prompts show ({@link SchemaContext#schema}: retrieval may have cut the visible schema further).
 */
public final class QuestionValues {
    private final SchemaContext schemas;
    private final int matches;

    public QuestionValues(SchemaContext schemas, int matches) {
        this.schemas = schemas;
        this.matches = matches;
    }

    public String text(RequestContext ctx) {
        List<String> found = ctx.matchedValues.isEmpty()
                ? ValueText.of(inShownSchema(ctx, schemas.doors().door(ctx.dbId, ctx.tenant)
                        .values(ctx.question + " " + (ctx.evidence == null ? "" : ctx.evidence), matches)))
                : ctx.matchedValues;
        return ValueText.forPrompt(found);
    }

    private List<ValueMatch> inShownSchema(RequestContext ctx, List<ValueMatch> found) {
        DatabaseSchema schema = schemas.schema(ctx);
        return found.stream().filter(v -> schema.table(v.table()).isPresent()).toList();
    }
}

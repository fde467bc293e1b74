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
 *
 * <p>The index's hits are looked up once per question: generation, alignment, correction and the adherence check all
 * show them, and a lookup is the dearest part of their prompts (issue 41). The text is kept in the request's notes
 * ({@link #LOOKED_UP}) with the tables it was cut to, and looked up again only when those changed.
 */
public final class QuestionValues {
    /** Note prefix (followed by the number of matches) of the index's hits as prompt text, after the tables' key. */
    public static final String LOOKED_UP = "values.looked-up.";
    private static final char KEY_END = '\u0001';

    private final SchemaContext schemas;
    private final int matches;

    public QuestionValues(SchemaContext schemas, int matches) {
        this.schemas = schemas;
        this.matches = matches;
    }

    public String text(RequestContext ctx) {
        if (!ctx.matchedValues.isEmpty()) {
            return ValueText.forPrompt(ctx.matchedValues);
        }
        String note = LOOKED_UP + matches;
        String tables = ctx.retrievedTables == null ? "*" : String.join(",", ctx.retrievedTables);
        String kept;
        synchronized (ctx) {
            kept = ctx.notes.get(note);
        }
        if (kept != null && kept.length() > tables.length() && kept.charAt(tables.length()) == KEY_END
                && kept.startsWith(tables)) {
            return kept.substring(tables.length() + 1);
        }
        String text = ValueText.forPrompt(ValueText.of(inShownSchema(ctx, schemas.doors().door(ctx.dbId, ctx.tenant)
                .values(ctx.question + " " + (ctx.evidence == null ? "" : ctx.evidence), matches))));
        synchronized (ctx) {
            ctx.notes.put(note, tables + KEY_END + text);
        }
        return text;
    }

    private List<ValueMatch> inShownSchema(RequestContext ctx, List<ValueMatch> found) {
        DatabaseSchema schema = schemas.schema(ctx);
        return found.stream().filter(v -> schema.table(v.table()).isPresent()).toList();
    }
}

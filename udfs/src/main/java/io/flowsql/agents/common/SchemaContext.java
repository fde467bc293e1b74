package io.flowsql.agents.common;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.catalog.SchemaCatalog;
import java.util.Objects;

/**
 * The prompt fields every agent shares (database, question, evidence, history, schema), so each stage
 * shows the model the same labelled lines the conventions and the simulator expect.
 */
public final class SchemaContext {
    /** What prompts show when a question comes without evidence. */
    public static final String NO_EVIDENCE = "(none)";

    private final SchemaCatalog catalog;
    private final SchemaViews views;
    private final HistoryRenderer history;

    public SchemaContext(SchemaCatalog catalog, SchemaViews views, HistoryRenderer history) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.views = Objects.requireNonNull(views, "views");
        this.history = Objects.requireNonNull(history, "history");
    }

    public DatabaseSchema schema(RequestContext ctx) {
        return catalog.schema(ctx.dbId);
    }

    /** The schema a linking stage chose for this request, else the full schema. */
    public String schemaText(RequestContext ctx) {
        return ctx.schemaText != null && !ctx.schemaText.isBlank() ? ctx.schemaText : views.full(schema(ctx));
    }

    public SchemaViews views() {
        return views;
    }

    /** The fields every prompt shares: db_id, question, evidence, history and schema; stages add their own with {@link PromptFields#with}. */
    public PromptFields promptFields(RequestContext ctx) {
        return PromptFields.shared(ctx.dbId, ctx.question, ctx.evidence, history.render(ctx.history), schemaText(ctx));
    }

    /** Labelled prompt lines are single lines (the simulator and models read them so). */
    public static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}

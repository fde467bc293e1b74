package io.flowsql.agents.common;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.access.AccessPolicies;
import io.flowsql.access.DataDoors;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.retrieve.SchemaSubset;
import java.util.List;
import java.util.Objects;

/**
 * The prompt fields every agent shares (database, question, evidence, history, schema), so each stage
 * shows the model the same labelled lines the conventions and the simulator expect. The schema a stage gets is the
 * one the question may see: the tables its tenant's access policy allows, cut to those schema retrieval kept
 * ({@link RequestContext#retrievedTables}); the cut schemas are made once per visible schema and table set. Schemas come only through the request's {@link io.flowsql.access.DataDoor}.
 */
public final class SchemaContext {
    /** What prompts show when a question comes without evidence. */
    public static final String NO_EVIDENCE = "(none)";

    private final DataDoors doors;
    private final SchemaViews views;
    private final HistoryRenderer history;
    /** Per visible schema (by identity, released with it): the schemas cut to the kept tables. */
    private final Cache<DatabaseSchema, Cache<String, DatabaseSchema>> cuts = Caffeine.newBuilder().weakKeys().build();

    /** Schemas read through {@code doors}: each request's door (its database, its tenant) shows only what it may see. */
    public SchemaContext(DataDoors doors, SchemaViews views, HistoryRenderer history) {
        this.doors = Objects.requireNonNull(doors, "doors");
        this.views = Objects.requireNonNull(views, "views");
        this.history = Objects.requireNonNull(history, "history");
    }

    /** The same context over {@code doors} (the room that also holds what stages learn from: {@link DataDoors#holding}). */
    public SchemaContext through(DataDoors doors) {
        return new SchemaContext(doors, views, history);
    }

    /** The schema this request's prompts show: the visible schema, cut to the retrieved tables when retrieval cut it. */
    public DatabaseSchema schema(RequestContext ctx) {
        DatabaseSchema visible = visibleSchema(ctx);
        if (ctx.retrievedTables == null) {
            return visible;
        }
        List<String> brief = ctx.retrievedBrief == null ? List.of() : ctx.retrievedBrief;
        return cutsOf(visible).get(String.join("\u0000", ctx.retrievedTables) + "\u0001" + String.join("\u0000", brief),
                k -> SchemaSubset.named(visible, ctx.retrievedTables, brief));
    }

    /** The tables the request's tenant may see (the whole catalog schema when its policy hides none). */
    public DatabaseSchema visibleSchema(RequestContext ctx) {
        return doors.door(ctx.dbId, ctx.tenant).schema();
    }

    public AccessPolicies access() {
        return doors.access();
    }

    /** The room this context reads schemas from (stages run their SQL through the same one). */
    public DataDoors doors() {
        return doors;
    }

    private Cache<String, DatabaseSchema> cutsOf(DatabaseSchema visible) {
        return cuts.get(visible, w -> Caffeine.newBuilder().maximumSize(4096).build());
    }

    /** The schema a linking stage chose for this request, else the full schema. */
    public String schemaText(RequestContext ctx) {
        return ctx.schemaText != null && !ctx.schemaText.isBlank() ? ctx.schemaText : views.full(schema(ctx));
    }

    public SchemaViews views() {
        return views;
    }

    /** The fields every prompt shares: db_id, question, evidence, history, schema and the database's engine; stages add their own with {@link PromptFields#with}. */
    public PromptFields promptFields(RequestContext ctx) {
        return PromptFields.shared(ctx.dbId, ctx.question, ctx.evidence, history.render(ctx.history), schemaText(ctx))
                .withEngine(doors.door(ctx.dbId, ctx.tenant).engine());
    }

    /** Labelled prompt lines are single lines (the simulator and models read them so). */
    public static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}

package io.flowsql.agents.common;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.access.AccessPolicies;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.retrieve.SchemaSubset;
import java.util.List;
import java.util.Objects;

/**
 * The prompt fields every agent shares (database, question, evidence, history, schema), so each stage
 * shows the model the same labelled lines the conventions and the simulator expect. The schema a stage gets is the
 * one the question may see: the tables its tenant's access policy allows, cut to those schema retrieval kept
 * ({@link RequestContext#retrievedTables}); the cut schemas are made once per catalog schema and table set.
 */
public final class SchemaContext {
    /** What prompts show when a question comes without evidence. */
    public static final String NO_EVIDENCE = "(none)";

    private final SchemaCatalog catalog;
    private final SchemaViews views;
    private final HistoryRenderer history;
    private final AccessPolicies access;
    /** Per catalog schema (by identity, released with it): the cut schemas by tenant and kept tables. */
    private final Cache<DatabaseSchema, Cache<String, DatabaseSchema>> cuts = Caffeine.newBuilder().weakKeys().build();

    public SchemaContext(SchemaCatalog catalog, SchemaViews views, HistoryRenderer history) {
        this(catalog, views, history, AccessPolicies.allowAll());
    }

    public SchemaContext(SchemaCatalog catalog, SchemaViews views, HistoryRenderer history, AccessPolicies access) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.views = Objects.requireNonNull(views, "views");
        this.history = Objects.requireNonNull(history, "history");
        this.access = Objects.requireNonNull(access, "access");
    }

    /** The schema this request's prompts show: the visible schema, cut to the retrieved tables when retrieval cut it. */
    public DatabaseSchema schema(RequestContext ctx) {
        DatabaseSchema visible = visibleSchema(ctx);
        if (ctx.retrievedTables == null) {
            return visible;
        }
        List<String> brief = ctx.retrievedBrief == null ? List.of() : ctx.retrievedBrief;
        return cutsOf(catalog.schema(ctx.dbId)).get(cutKey(ctx) + "\u0000" + String.join("\u0000", ctx.retrievedTables)
                        + "\u0001" + String.join("\u0000", brief),
                k -> SchemaSubset.named(visible, ctx.retrievedTables, brief));
    }

    /** The tables the request's tenant may see (the whole catalog schema when its policy hides none). */
    public DatabaseSchema visibleSchema(RequestContext ctx) {
        DatabaseSchema whole = catalog.schema(ctx.dbId);
        if (!access.restrictsTables(ctx.tenant, ctx.dbId)) {
            return whole;
        }
        var allowed = access.tables(ctx.tenant, ctx.dbId);
        return cutsOf(whole).get(cutKey(ctx), k -> SchemaSubset.of(whole, t -> allowed.test(t.name())));
    }

    public AccessPolicies access() {
        return access;
    }

    private Cache<String, DatabaseSchema> cutsOf(DatabaseSchema whole) {
        return cuts.get(whole, w -> Caffeine.newBuilder().maximumSize(4096).build());
    }

    private String cutKey(RequestContext ctx) {
        return access.restrictsTables(ctx.tenant, ctx.dbId) ? "tenant:" + ctx.tenant : "all";
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
                .withEngine(catalog.engine(ctx.dbId));
    }

    /** Labelled prompt lines are single lines (the simulator and models read them so). */
    public static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}

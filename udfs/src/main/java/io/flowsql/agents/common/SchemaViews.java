package io.flowsql.agents.common;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.util.List;
import java.util.Objects;

/**
 * The two ways agents show a schema to the model (whole, or MAG-SQL's soft schema centred on the linked columns),
 * drawn by the database layer's SchemaRenderer (its full and soft renderings).
 * The full rendering depends only on the schema and every LLM stage of every request asks for it, so it is
 * rendered (and token-counted) once per schema object the catalog hands out.
 */
public final class SchemaViews {
    private final SchemaRenderer renderer;
    /** Weak keys compare by identity and let a schema the catalog evicted take its rendering with it. */
    private final Cache<DatabaseSchema, String> fullTexts = Caffeine.newBuilder().weakKeys().build();

    public SchemaViews(SchemaRenderer renderer) {
        this.renderer = Objects.requireNonNull(renderer, "renderer");
    }

    /** Views drawn by a renderer that counts tokens and runs its sample-row queries through {@code sql}. */
    public static SchemaViews over(SafeExecutor sql) {
        return new SchemaViews(new SchemaRenderer(new TokenCounter(), sql));
    }

    /** Every table and column. */
    public String full(DatabaseSchema schema) {
        return fullTexts.get(schema, s -> renderer.full(s).text());
    }

    /** Every table and column, each table followed by its first {@code rows} rows (runs SQL: call it off the task thread). */
    public String withExampleRows(DatabaseSchema schema, int rows) {
        return renderer.ddlWithRows(schema, rows).text();
    }

    /** Only the chosen columns, their tables and the keys that join them (OpenSearch-SQL's generation schema). */
    public String pruned(DatabaseSchema schema, List<ColumnRef> chosen) {
        return renderer.pruned(schema, chosen).text();
    }

    /** The linked columns in full (with value examples), the rest of the schema only by name. */
    public String soft(DatabaseSchema schema, List<ColumnRef> linkedColumns) {
        return renderer.soft(schema, linkedColumns).text();
    }
}

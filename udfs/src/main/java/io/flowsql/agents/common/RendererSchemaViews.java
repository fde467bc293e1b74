package io.flowsql.agents.common;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.render.SchemaRenderer;
import java.util.List;
import java.util.Objects;

/**
 * The schema views agents use, drawn by the database layer's SchemaRenderer (its full and soft renderings).
 * The full rendering depends only on the schema and every LLM stage of every request asks for it, so it is
 * rendered (and token-counted) once per schema object the catalog hands out.
 */
public final class RendererSchemaViews implements SchemaViews {
    private final SchemaRenderer renderer;
    /** Weak keys compare by identity and let a schema the catalog evicted take its rendering with it. */
    private final Cache<DatabaseSchema, String> fullTexts = Caffeine.newBuilder().weakKeys().build();

    public RendererSchemaViews(SchemaRenderer renderer) {
        this.renderer = Objects.requireNonNull(renderer, "renderer");
    }

    @Override
    public String full(DatabaseSchema schema) {
        return fullTexts.get(schema, s -> renderer.full(s).text());
    }

    @Override
    public String soft(DatabaseSchema schema, List<ColumnRef> linkedColumns) {
        return renderer.soft(schema, linkedColumns).text();
    }
}

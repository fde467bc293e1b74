package io.flowsql.agents.common;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.render.SchemaRenderer;
import java.util.List;
import java.util.Objects;

/** The schema views agents use, drawn by the database layer's SchemaRenderer (its full and soft renderings). */
public final class RendererSchemaViews implements SchemaViews {
    private final SchemaRenderer renderer;

    public RendererSchemaViews(SchemaRenderer renderer) {
        this.renderer = Objects.requireNonNull(renderer, "renderer");
    }

    @Override
    public String full(DatabaseSchema schema) {
        return renderer.full(schema).text();
    }

    @Override
    public String soft(DatabaseSchema schema, List<ColumnRef> linkedColumns) {
        return renderer.soft(schema, linkedColumns).text();
    }
}

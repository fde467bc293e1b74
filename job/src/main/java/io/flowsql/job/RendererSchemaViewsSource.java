package io.flowsql.job;

import io.flowsql.agents.common.RendererSchemaViews;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.engine.SchemaViewsSource;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;

/** Gives the job's engines the database layer's schema renderer (full and soft renderings), built where they run. */
final class RendererSchemaViewsSource implements SchemaViewsSource {
    private static final long serialVersionUID = 1L;

    @Override
    public SchemaViews create(SqlExecutor sql) {
        return new RendererSchemaViews(new SchemaRenderer(new TokenCounter(), sql));
    }
}

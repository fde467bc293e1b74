package io.flowsql.job;

import io.flowsql.agents.common.RendererSchemaViews;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.engine.SchemaViewsSource;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;

/** Gives the job's engines the database layer's schema renderer (full and soft renderings), built where they run. */
final class RendererSchemaViewsSource implements SchemaViewsSource {
    private static final long serialVersionUID = 1L;

    private final DatabaseLocator databases;
    private final SqlExecutorConfig sql;

    RendererSchemaViewsSource(DatabaseLocator databases, SqlExecutorConfig sql) {
        this.databases = databases;
        this.sql = sql;
    }

    @Override
    public SchemaViews create() {
        return new RendererSchemaViews(new SchemaRenderer(new TokenCounter(), new SqliteSafeExecutor(databases, sql)));
    }
}

package io.flowsql.agents;

import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.RendererSchemaViews;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.sql.SchemaCatalog;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.ValueIndexProvider;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;

/** The real database parts agent tests are built from: Spider's SQLite files, the safe executor, catalog, value index and renderer. */
public final class SpiderAgentParts {
    public static final DatabaseLocator LOCATOR = SpiderData.locator();
    public static final SqlExecutor EXECUTOR = new SqliteSafeExecutor(LOCATOR, SqlExecutorConfig.defaults());
    public static final SchemaCatalog CATALOG = new SqliteSchemaCatalog(LOCATOR);
    public static final ValueIndexProvider VALUES = CachingValueIndexProvider.ngram(LOCATOR, LcsValueScorer.defaults(), 8);
    public static final SchemaViews VIEWS = new RendererSchemaViews(new SchemaRenderer(new TokenCounter(), EXECUTOR));
    public static final SchemaContext SCHEMAS = new SchemaContext(CATALOG, VIEWS, new HistoryRenderer());

    private SpiderAgentParts() {}
}

package io.flowsql.agents;

import io.flowsql.access.DataDoors;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.pipeline.StageSql;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;

/** The real database parts agent tests are built from: Spider's SQLite files, the safe executor, catalog, value index and renderer. */
public final class SpiderAgentParts {
    public static final DatabaseLocator LOCATOR = SpiderData.locator();
    public static final SqliteSafeExecutor EXECUTOR = new SqliteSafeExecutor(LOCATOR, SqlExecutorConfig.defaults());
    public static final SqliteSchemaCatalog CATALOG = new SqliteSchemaCatalog(LOCATOR);
    public static final CachingValueIndexProvider VALUES = CachingValueIndexProvider.ngram(LOCATOR, LcsValueScorer.defaults(), 8);
    public static final SchemaViews VIEWS = SchemaViews.over(EXECUTOR);
    /** The room of these parts without any policy: stages reach the SQL, schemas and values through its doors. */
    public static final DataDoors ROOM = DataDoors.open(EXECUTOR, CATALOG, VALUES);
    public static final StageSql SQL = new StageSql(ROOM);
    public static final SchemaContext SCHEMAS = new SchemaContext(ROOM, VIEWS, new HistoryRenderer());

    /** The agents' schemas over the room also holding {@code learned} (an example library, a repair memory, embeddings). */
    public static SchemaContext schemasHolding(io.flowsql.access.Scoped<?>... learned) {
        return SCHEMAS.through(ROOM.holding(learned));
    }

    private SpiderAgentParts() {}
}

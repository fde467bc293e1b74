package io.flowsql.engine;

import io.flowsql.agents.common.SchemaViews;
import io.flowsql.sql.SqlExecutor;

import java.io.Serializable;

/** How a TaskManager makes the schema renderer its engine's agents use; shipped with the engine's configuration. */
@FunctionalInterface
public interface SchemaViewsSource extends Serializable {

    /** @param sql the engine's own safe executor, for renderings that show sample rows (the engine closes it) */
    SchemaViews create(SqlExecutor sql);
}

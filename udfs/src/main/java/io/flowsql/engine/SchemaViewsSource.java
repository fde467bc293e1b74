package io.flowsql.engine;

import io.flowsql.agents.common.SchemaViews;

import java.io.Serializable;

/** How a TaskManager makes the schema renderer its engine's agents use; shipped with the engine's configuration. */
@FunctionalInterface
public interface SchemaViewsSource extends Serializable {
    SchemaViews create();
}

package io.flowsql.sql.server;

import io.flowsql.sql.catalog.*;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.registry.DatabaseRegistry;

/** Declared databases from the live catalog, every other id from the SQLite folders. */
public final class RoutingSchemaCatalog implements SchemaCatalog {

    private final DatabaseRegistry registry;
    private final SchemaCatalog sqlite;
    private final JdbcSchemaCatalog jdbc;

    public RoutingSchemaCatalog(DatabaseRegistry registry, SchemaCatalog sqlite, JdbcSchemaCatalog jdbc) {
        this.registry = registry;
        this.sqlite = sqlite;
        this.jdbc = jdbc;
    }

    @Override
    public DatabaseSchema schema(String dbId) {
        return registry.declaration(dbId).isPresent() ? jdbc.schema(dbId) : sqlite.schema(dbId);
    }

    @Override
    public DatabaseEngine engine(String dbId) {
        return registry.engineOf(dbId);
    }

    @Override
    public boolean contains(String dbId) {
        return registry.declaration(dbId).isPresent() || sqlite.contains(dbId);
    }

    public JdbcSchemaCatalog live() {
        return jdbc;
    }
}

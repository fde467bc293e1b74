package io.flowsql.sql.catalog;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;

/**
 * The schemas of the databases a question may name, as the agents see them. {@link SqliteSchemaCatalog} reads SQLite
 * folders; {@code JdbcSchemaCatalog} reads a live PostgreSQL or DuckDB catalog; {@code RoutingSchemaCatalog} picks one
 * by database id. A returned schema is one consistent snapshot (a refresh swaps whole schemas, never parts).
 */
public interface SchemaCatalog {

    /** @throws IllegalArgumentException when no database has this id */
    DatabaseSchema schema(String dbId);

    /** The engine behind this database id, whose dialect the prompts name (SQLite, the embedded default, unless declared). */
    default DatabaseEngine engine(String dbId) {
        return DatabaseEngine.embedded();
    }

    /** Whether a database with this id exists. */
    boolean contains(String dbId);
}

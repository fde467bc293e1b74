package io.flowsql.sql;

/** Schemas by database id, built once per database and cached. */
public interface SchemaCatalog {

    /** @throws IllegalArgumentException when no database has this id */
    DatabaseSchema schema(String dbId);

    /** Whether a database with this id exists. */
    boolean contains(String dbId);
}

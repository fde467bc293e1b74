package io.flowsql.sql.engine;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The database engines the job can ask: SQLite folders (the embedded default, no declaration needed), and PostgreSQL
 * DuckDB and MariaDB declared by id. Each names its SQL dialect for the prompts.
 */
public enum DatabaseEngine {
    SQLITE("SQLite", "sqlite", SqliteProfile::new),
    POSTGRESQL("PostgreSQL", "postgresql", PostgresProfile::new),
    DUCKDB("DuckDB", "duckdb", DuckDbProfile::new),
    MARIADB("MariaDB", "mariadb", MariaDbProfile::new);

    private final String displayName;
    private final String id;
    private final Supplier<EngineProfile> profile;
    private volatile EngineProfile made;

    DatabaseEngine(String displayName, String id, Supplier<EngineProfile> profile) {
        this.displayName = displayName;
        this.id = id;
        this.profile = profile;
    }

    /** Everything that differs on this engine: its lexing, parsing, guard rules and session handling. */
    public EngineProfile profile() {
        EngineProfile p = made;
        if (p == null) {
            p = profile.get();
            made = p;
        }
        return p;
    }

    /** How prompts and docs name it ("PostgreSQL"). */
    public String displayName() {
        return displayName;
    }

    /** How configuration names it ("postgresql"). */
    public String id() {
        return id;
    }

    /**
     * The engine of the embedded database folders, which need no declaration (SQLite): what a database id without a
     * declaration runs on, and the dialect prompts name when they know no database.
     */
    public static DatabaseEngine embedded() {
        return SQLITE;
    }

    /** True for an engine reached through a declared JDBC URL (every engine but the embedded SQLite folders). */
    public boolean jdbc() {
        return this != SQLITE;
    }

    /** From a configuration value ("postgresql", "postgres", "pg", "duckdb", "sqlite"), or from a JDBC URL. */
    public static DatabaseEngine parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.startsWith("jdbc:")) {
            n = n.substring(5, n.indexOf(':', 5) < 0 ? n.length() : n.indexOf(':', 5));
        }
        return switch (n) {
            case "sqlite" -> SQLITE;
            case "postgresql", "postgres", "pg" -> POSTGRESQL;
            case "duckdb" -> DUCKDB;
            case "mariadb", "mysql" -> MARIADB;
            default -> throw new IllegalArgumentException("unknown database dialect '" + name
                    + "' (known: sqlite, postgresql, duckdb, mariadb)");
        };
    }
}

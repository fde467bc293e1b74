package io.flowsql.sql;

/**
 * Why a statement did not run or did not finish; {@code message} is fit to show to a model as feedback, {@code sqlState}
 * is the engine's SQLState when it gave one (null otherwise: SQLite, DuckDB, and the project's own refusals), read
 * first by the engine's profile ({@link io.flowsql.sql.engine.EngineProfile#fault(String, String)}).
 */
public record SqlError(Kind kind, String message, String sqlState) {

    /** An error without a SQLState. */
    public SqlError(Kind kind, String message) {
        this(kind, message, null);
    }

    public enum Kind {
        /** Not a single read-only SELECT/WITH statement (writes, ATTACH, PRAGMA, several statements...). */
        REFUSED,
        /** SQLite could not prepare it: syntax error, unknown table or column. */
        INVALID_SQL,
        /** Stopped at the time limit. */
        TIMEOUT,
        /** Failed while running. */
        RUNTIME,
        /** No database with that id. */
        UNKNOWN_DATABASE,
        /** A declared database that refused the login or cannot be reached ({@link DatabaseUnavailable}). */
        DATABASE_UNAVAILABLE
    }

    @Override
    public String toString() {
        return kind + ": " + message;
    }
}

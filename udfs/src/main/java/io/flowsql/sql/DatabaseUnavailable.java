package io.flowsql.sql;

/**
 * A declared database that cannot be reached at all: its server refused the login, cannot be reached, or its password
 * cannot be read. Thrown (or carried as {@link SqlError.Kind#DATABASE_UNAVAILABLE}) at once instead of waiting for a
 * free connection, so a question on it fails in a moment with {@code error_kind} {@code database_unavailable}. The
 * message names the database id and the reason's category (and SQLSTATE) only: never a password, user or URL.
 */
public final class DatabaseUnavailable extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseUnavailable(String message) {
        super(message, null, false, false);
    }
}

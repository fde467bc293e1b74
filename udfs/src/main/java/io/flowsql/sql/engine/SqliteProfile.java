package io.flowsql.sql.engine;

import java.sql.Connection;
import net.sf.jsqlparser.parser.CCJSqlParser;

/**
 * SQLite: {@code [bracketed]} and backtick names, no escape strings; the statement guard's base rules are SQLite's
 * own, and a statement JSqlParser cannot read is checked by SQLite's compiled program (EXPLAIN) on a read-only,
 * query-only connection that is opened per database file and never changed by a statement.
 */
public final class SqliteProfile implements EngineProfile {

    @Override
    public String jdbcUrlPrefix() {
        return "jdbc:sqlite:";
    }

    @Override
    public String columnType(String sqliteStorageClass) {
        return switch (sqliteStorageClass) {
            case "integer" -> "INTEGER";
            case "real" -> "REAL";
            case "blob" -> "BLOB";
            default -> "TEXT";
        };
    }

    @Override
    public String displayName() {
        return "SQLite";
    }

    @Override
    public SqlTokens.Lexing lexing() {
        return SqlTokens.Lexing.SQLITE;
    }

    @Override
    public void parserSettings(CCJSqlParser parser) {
        parser.withSquareBracketQuotation(true);
    }

    @Override
    public boolean mustParse() {
        return false;
    }

    @Override
    public String tokenRefusal(String sql, SqlLexer.Scan scan) {
        return null;
    }

    @Override
    public void resetSession(Connection connection) {
        // a query-only connection keeps no session state a statement could change
    }
}

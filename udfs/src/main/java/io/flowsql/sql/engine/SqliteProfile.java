package io.flowsql.sql.engine;

import java.sql.Connection;

/**
 * SQLite: {@code [bracketed]} and backtick names, no escape strings; the statement guard's base rules are SQLite's
 * own, and a statement JSqlParser cannot read is checked by SQLite's compiled program (EXPLAIN) on a read-only,
 * query-only connection that is opened per database file and never changed by a statement.
 */
public final class SqliteProfile implements EngineProfile {
    /** SQLite's facts; its error wording reads a missing name before the form ("no such column" over a "parse"). */
    private static final EngineFacts FACTS = new EngineFacts("SQLite", "jdbc:sqlite:", SqlTokens.Lexing.SQLITE,
            parser -> parser.withSquareBracketQuotation(true), false,
            new EngineFacts.ColumnTypes("INTEGER", "REAL", "BLOB", "TEXT"),
            ErrorWording.load("sqlite"));

    /** The models and Spider's golds write SQLite. */
    @Override
    public EngineFacts facts() {
        return FACTS;
    }

    @Override
    public boolean runsSpiderSqlAsWritten() {
        return true;
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

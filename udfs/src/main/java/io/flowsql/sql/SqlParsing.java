package io.flowsql.sql;

import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

import java.util.Optional;

/**
 * JSqlParser on the caller's thread. {@code CCJSqlParserUtil.parse(String[, Consumer])} makes a new single-thread
 * executor for every statement (to bound the parse time), which showed up as tens of thousands of short-lived
 * {@code pool-N-thread-1} threads in a throughput run; the caller here is already on the engine's bounded work pool.
 * Square-bracket names are allowed (SQLite accepts them); the faster simple grammar is tried before the complex one.
 */
public final class SqlParsing {
    private SqlParsing() {}

    /** The statement, or empty when JSqlParser cannot read it (a parse failure means "unknown", never "reject"). */
    public static Optional<Statement> parse(String sql) {
        if (sql == null || sql.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(CCJSqlParserUtil.newParser(sql).withSquareBracketQuotation(true).Statement());
        } catch (Exception | StackOverflowError simpleFailed) {
            try {
                return Optional.of(CCJSqlParserUtil.newParser(sql).withSquareBracketQuotation(true)
                        .withAllowComplexParsing(true).Statement());
            } catch (Exception | StackOverflowError e) {
                return Optional.empty();
            }
        }
    }
}

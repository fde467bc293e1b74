package io.flowsql.sql.engine;

import java.util.function.Consumer;
import net.sf.jsqlparser.parser.CCJSqlParser;

/**
 * What a profile states about its engine rather than decides: its name, its JDBC URL, how its SQL is lexed and parsed,
 * the loader's column types and how its error messages read. A profile holds one of these and only the rules that
 * differ, so two engines alike in these facts share no copied methods.
 *
 * @param displayName    how prompts and docs name the engine ("PostgreSQL")
 * @param jdbcUrlPrefix  what a declared database's JDBC URL starts with ("jdbc:postgresql:")
 * @param lexing         how the engine's own lexer reads text (quotes, escape strings, comments)
 * @param parserSettings JSqlParser's settings for this engine's SQL
 * @param mustParse      true when a statement JSqlParser cannot read as one SELECT is refused (no engine-side plan check)
 * @param columnTypes    the loader's column type for each SQLite storage class
 * @param errors         how the engine words its errors, read for the correction stages
 */
public record EngineFacts(String displayName, String jdbcUrlPrefix, SqlTokens.Lexing lexing,
                          Consumer<CCJSqlParser> parserSettings, boolean mustParse, ColumnTypes columnTypes,
                          ErrorWording errors) {

    /** The loader's type of a SQLite column by the storage class of its values; anything else is text. */
    public record ColumnTypes(String integer, String real, String blob, String text) {
        String of(String sqliteStorageClass) {
            return switch (sqliteStorageClass) {
                case "integer" -> integer;
                case "real" -> real;
                case "blob" -> blob;
                default -> text;
            };
        }
    }
}

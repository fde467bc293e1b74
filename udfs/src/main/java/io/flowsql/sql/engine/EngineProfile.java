package io.flowsql.sql.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.statement.Statement;

/**
 * Everything that differs between database engines, in one class per engine: how its SQL is lexed and parsed, the
 * statement guard's rules on its tokens and on its parsed statement, and how a statement's session is set up (a
 * read-only transaction, time and memory limits) and reset afterwards, and how its error messages read. The facts an
 * engine states ({@link EngineFacts}) come as one value; a profile implements only the rules that differ. Callers ask
 * the profile, never {@code if (engine == X)}.
 */
public interface EngineProfile {

    /** What this profile states about its engine: name, URL, lexing and parsing, loader types, error wording. */
    EngineFacts facts();

    /** How prompts and docs name the engine ("PostgreSQL"). */
    default String displayName() {
        return facts().displayName();
    }

    /** What a declared database's JDBC URL starts with ("jdbc:postgresql:"). */
    default String jdbcUrlPrefix() {
        return facts().jdbcUrlPrefix();
    }

    /** The schema a name without a schema resolves to when none is declared. */
    default String defaultSchema() {
        return "main";
    }

    /**
     * True for a schema (or catalog) of the engine's own, never a user's table: {@code information_schema}, PostgreSQL's
     * {@code pg_catalog}, {@code pg_toast*}, {@code pg_temp*}, MariaDB's {@code mysql}, {@code performance_schema},
     * {@code sys}, DuckDB's {@code system} and {@code temp} catalogs. The same set on every engine (a user schema of
     * one of these names on another engine would be as confusing as hidden).
     */
    default boolean systemSchema(String catalog, String schema) {
        return java.util.Set.of("information_schema", "pg_catalog", "pg_toast", "mysql", "performance_schema", "sys")
                .contains(schema) || schema.startsWith("pg_temp") || schema.startsWith("pg_toast")
                || (catalog != null && java.util.Set.of("system", "temp").contains(catalog));
    }

    /** True when a failed statement aborts the transaction it ran in (the reader must roll back before the next one). */
    default boolean failedStatementAbortsTransaction() {
        return false;
    }

    /**
     * The loader's column type for a SQLite column whose values are of this storage class ({@code integer},
     * {@code real}, {@code blob}, anything else as text).
     */
    default String columnType(String sqliteStorageClass) {
        return facts().columnTypes().of(sqliteStorageClass);
    }

    /**
     * True when the loader puts each database into a schema of its own (dropped and created again, names lower-cased as
     * unquoted names fold, foreign keys declared); false when it loads into the main schema, replacing tables by name.
     */
    default boolean loadsIntoOwnSchema() {
        return false;
    }

    /**
     * The loader's type for a column that is part of a primary key ({@code columnType} otherwise): MariaDB cannot index
     * a whole {@code LONGTEXT}.
     */
    default String keyColumnType(String type) {
        return type;
    }

    /** The longest text, in characters, a key column of {@link #keyColumnType} holds (no limit where the type is unchanged). */
    default int keyTextLimit() {
        return Integer.MAX_VALUE;
    }

    /** A name quoted as this engine quotes names ({@code "x"}; MariaDB {@code `x`}). */
    default String quoteName(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** An expression cast to text ({@code CAST(x AS VARCHAR)}; MariaDB {@code CAST(x AS CHAR)}). */
    default String textCast(String expression) {
        return "CAST(" + expression + " AS VARCHAR)";
    }

    /**
     * The length of a text expression in characters ({@code length(x)}; MariaDB's {@code length} counts bytes, so there
     * {@code CHAR_LENGTH(x)}): a bound on a value's length means the same on every engine.
     */
    default String textLength(String expression) {
        return "length(" + expression + ")";
    }

    /** The loader's statements that replace a schema by an empty one of that name (for {@link #loadsIntoOwnSchema()} loads). */
    default java.util.List<String> replaceSchema(String quotedSchema) {
        return java.util.List.of("DROP SCHEMA IF EXISTS " + quotedSchema + " CASCADE", "CREATE SCHEMA " + quotedSchema);
    }

    /** What follows a loader's {@code ADD FOREIGN KEY … REFERENCES …} so rows that do not resolve are kept. */
    default String foreignKeySuffix() {
        return " NOT VALID";
    }

    /** The JDBC driver class a pool opens connections with, or null when the engine opens its own (DuckDB's instance). */
    default String driverClass() {
        return null;
    }

    /**
     * The driver's connection properties for a declared database (its schemas; the connect time-out): read-only,
     * session settings that hold before any statement.
     */
    default java.util.Properties connectionProperties(java.util.List<String> schemas, int connectSeconds) {
        return new java.util.Properties();
    }

    /** How the engine's own lexer reads text (quotes, escape strings, comments). */
    default SqlTokens.Lexing lexing() {
        return facts().lexing();
    }

    /** JSqlParser's settings for this engine's SQL. */
    default void parserSettings(CCJSqlParser parser) {
        facts().parserSettings().accept(parser);
    }

    /**
     * Words JSqlParser reserves but the engine accepts as plain names in a query ({@code import}); the guard's parse
     * retries with them quoted, so a column named {@code import} is not refused.
     */
    default Set<String> namesJSqlParserReserves() {
        return Set.of("import");
    }

    /** True when a statement JSqlParser cannot read as one SELECT is refused (no engine-side plan check exists). */
    default boolean mustParse() {
        return facts().mustParse();
    }

    /**
     * True when SQL written in Spider's dialect (SQLite, what the models and the golds write) runs here as written, so
     * dialect alignment leaves it alone.
     */
    default boolean runsSpiderSqlAsWritten() {
        return false;
    }

    /**
     * SQL written in Spider's dialect (SQLite's: what the models and the golds write), {@code sql} as {@code statement}
     * parsed in this engine's dialect, rewritten so this engine returns what SQLite returns, or empty when nothing
     * changed; {@code names} are the schema's table and column names, lower-cased. The default, for engines that read double quotes as names and tell case apart
     * in {@code LIKE} (PostgreSQL, DuckDB): a double-quoted value that names nothing of the schema becomes a text literal,
     * {@code LIKE} becomes {@code ILIKE} ({@link QuotedValueAlignment}). Not asked when {@link #runsSpiderSqlAsWritten()}.
     */
    default java.util.Optional<String> alignSpiderSql(String sql, Statement statement, Set<String> names) {
        return QuotedValueAlignment.align(statement, names);
    }

    /**
     * What a failed statement's error message, in this engine's wording, says is wrong (the correction stages' error
     * class): its form, a missing column, another missing name, or something else.
     */
    default StatementFault fault(String message) {
        return fault(null, message);
    }

    /**
     * The fault of a failed statement by its SQLState first, where this engine gives one that names the fault
     * (PostgreSQL's {@code 42703} undefined column, MariaDB's {@code 42S02} missing table), else by its message.
     */
    default StatementFault fault(String sqlState, String message) {
        return facts().errors().read(sqlState, message);
    }

    /** Why the statement's tokens are refused on this engine, or null. Runs before any parse. */
    String tokenRefusal(String sql, SqlLexer.Scan scan);

    /** Why the parsed statement is refused on this engine (beyond being one SELECT), or null. */
    default String parsedRefusal(Statement statement) {
        return null;
    }

    /** True when a database role can be set for one statement ({@link #beginStatement} with a role). */
    default boolean setsRoles() {
        return false;
    }

    /**
     * Opens the statement's read-only transaction on a pooled connection (auto-commit already off) with what is left
     * of its budget as the engine's own time limits, and the role when not null.
     *
     * @return false when the role could not be set
     */
    default boolean beginStatement(Connection connection, long remainingMillis, String role) throws SQLException {
        return true;
    }

    /**
     * How long before a statement's deadline its watchdog interrupts it: the time this engine may take to stop once
     * interrupted (a spilled sort, a hash table being freed), so the statement ends within its budget and not after.
     */
    default long interruptLeadMillis(long budgetMillis) {
        return 0;
    }

    /**
     * Rolls the statement back and resets the session completely (settings, random seed, read-only characteristics)
     * before the connection goes back to its pool.
     */
    void resetSession(Connection connection) throws SQLException;
}

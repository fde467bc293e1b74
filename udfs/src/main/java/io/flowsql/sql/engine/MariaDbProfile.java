package io.flowsql.sql.engine;

import io.flowsql.sql.engine.SqlTokens.Kind;
import io.flowsql.sql.engine.SqlTokens.Token;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import net.sf.jsqlparser.parser.AbstractJSqlParser;

/**
 * MariaDB (and the MySQL dialect it shares): its lexer (backtick names, {@code "…"} and {@code '…'} strings with
 * backslash escapes, {@code #} comments, {@code --} a comment only before white space); the guard refuses backslashes,
 * executable comments ({@code /*! … *&#47;}, which MariaDB runs), user and system variables ({@code @x},
 * {@code @@session.x}, {@code :=}), clauses that write or lock ({@code INTO OUTFILE}, {@code LOCK IN SHARE MODE}, …)
 * and functions that sleep, lock, read files, run programs or change the session; each statement runs in a
 * {@code READ ONLY} transaction with {@code max_statement_time} set to what is left of its budget and bounded
 * in-memory temporary tables, sort and join buffers, recursion and join size; the watchdog's cancel is the driver's
 * {@code KILL QUERY}; afterwards the session is reset ({@code COM_RESET_CONNECTION}: variables, temporary tables,
 * locks, settings all dropped) and made read-only again.
 */
public final class MariaDbProfile implements EngineProfile {
    /** MariaDB's facts: backslash escapes, {@code #} comments and {@code "…"} strings for JSqlParser, MariaDB's types. */
    private static final EngineFacts FACTS = new EngineFacts("MariaDB", "jdbc:mariadb:", SqlTokens.Lexing.MYSQL,
            parser -> parser.withDialect(AbstractJSqlParser.Dialect.MARIADB).withSquareBracketQuotation(false)
                    .withBackslashEscapeCharacter(true).withHashLineComments(true).withDoubleQuotedStrings(true),
            true, new EngineFacts.ColumnTypes("BIGINT", "DOUBLE", "LONGBLOB", "LONGTEXT"),
            ErrorWording.load("mariadb"));

    /** In-memory temporary tables (GROUP BY, DISTINCT, derived tables) of one statement; past it they go to disk. */
    public static final String TMP_TABLE_SIZE = "16777216";
    /** One sort's buffer and one join's buffer. */
    public static final String SORT_BUFFER_SIZE = "2097152";
    public static final String JOIN_BUFFER_SIZE = "1048576";
    /** Rows a statement's plan may examine (estimated before it runs): a 10^12-row cross join is refused at once. */
    public static final long MAX_JOIN_SIZE = 1_000_000_000L;
    /** Rounds of a recursive CTE (the server's default is 4 294 967 295). */
    public static final int MAX_RECURSIVE_ITERATIONS = 100_000;

    static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
            "load_file", "sleep", "benchmark", "get_lock", "release_lock", "release_all_locks", "is_free_lock",
            "is_used_lock", "master_pos_wait", "master_gtid_wait", "source_pos_wait", "sys_exec", "sys_eval", "sys_get",
            "sys_set", "lib_mysqludf_sys_info", "last_insert_id", "nextval", "setval", "lastval", "found_rows",
            "binlog_gtid_pos", "version", "user", "current_user", "session_user", "system_user", "current_role",
            "database", "schema", "connection_id", "des_encrypt", "des_decrypt", "encrypt", "password", "old_password",
            "wsrep_last_written_gtid", "wsrep_last_seen_gtid", "wsrep_sync_wait_upto_gtid", "column_json_sql",
            "sformat_sql");

    /** Functions that build one whole value in a single call (also bounded by the server's max_allowed_packet). */
    static final Set<String> BUILDERS = Set.of("repeat", "lpad", "rpad", "space");

    /** The database of the URL (a MariaDB schema is a database). */
    @Override
    public EngineFacts facts() {
        return FACTS;
    }

    @Override
    public String defaultSchema() {
        return "";
    }

    /** A key column's text as {@code VARCHAR(191)}: an index entry of utf8mb4 holds at most 768 characters. */
    @Override
    public String keyColumnType(String type) {
        return type.equals("LONGTEXT") ? "VARCHAR(" + keyTextLimit() + ")" : type;
    }

    @Override
    public int keyTextLimit() {
        return 191;
    }

    /** Each Spider database becomes a MariaDB database (its schema), names lower-cased as the server stores them. */
    @Override
    public boolean loadsIntoOwnSchema() {
        return true;
    }

    @Override
    public List<String> replaceSchema(String quotedSchema) {
        return List.of("SET foreign_key_checks = 0", "DROP DATABASE IF EXISTS " + quotedSchema, "CREATE DATABASE " + quotedSchema
                + " CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin");
    }

    /** InnoDB takes a foreign key whose rows do not all resolve when {@code foreign_key_checks} is off ({@link #replaceSchema}). */
    @Override
    public String foreignKeySuffix() {
        return "";
    }

    /** SQLite's SQL as MariaDB reads it with SQLite's result ({@link MariaDbAlignment}). */
    @Override
    public java.util.Optional<String> alignSpiderSql(String sql, net.sf.jsqlparser.statement.Statement statement,
                                                     Set<String> names) {
        return MariaDbAlignment.align(sql, statement, names);
    }

    @Override
    public String quoteName(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    @Override
    public String textCast(String expression) {
        return "CAST(" + expression + " AS CHAR)";
    }

    @Override
    public String textLength(String expression) {
        return "CHAR_LENGTH(" + expression + ")";
    }

    @Override
    public String driverClass() {
        return "org.mariadb.jdbc.Driver";
    }

    /**
     * Databases reported as schemas (the catalog reader's view), no local files, no multi-statements, client-side
     * prepared statements, and every session read-only with a bounded recursion from its first statement on.
     */
    @Override
    public Properties connectionProperties(List<String> schemas, int connectSeconds) {
        Properties p = new Properties();
        p.setProperty("useCatalogTerm", "Schema");
        p.setProperty("allowLocalInfile", "false");
        p.setProperty("allowMultiQueries", "false");
        p.setProperty("useServerPrepStmts", "false");
        // Connection.reset() sends COM_RESET_CONNECTION only with this option
        p.setProperty("useResetConnection", "true");
        p.setProperty("connectTimeout", String.valueOf(connectSeconds * 1000L));
        p.setProperty("sessionVariables", "tx_read_only=1,max_recursive_iterations=" + MAX_RECURSIVE_ITERATIONS);
        return p;
    }

    @Override
    public String tokenRefusal(String sql, SqlLexer.Scan scan) {
        String engine = displayName();
        return TokenRules.first(() -> executableComment(scan.comments()), () -> variables(scan.tokens()),
                () -> TokenRules.serverRules(sql, scan.tokens(), FORBIDDEN_FUNCTIONS::contains, engine),
                () -> lockInShareMode(scan.tokens()),
                () -> TokenRules.unboundedBuilder(scan.tokens(), BUILDERS, Set.of(), engine));
    }

    /** {@code /*! … *&#47;} and {@code /*M! … *&#47;}: MariaDB runs their text as code, so no comment may be one. */
    static String executableComment(List<String> comments) {
        for (String c : comments) {
            if (c.startsWith("!") || c.startsWith("M!") || c.startsWith("m!")) {
                return "executable comments (/*! … */) are not allowed on MariaDB";
            }
        }
        return null;
    }

    /** User and system variables ({@code @x}, {@code @@x}) and {@code :=}: reading settings or carrying state between statements. */
    static String variables(List<Token> tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() == Kind.VARIABLE && t.text().startsWith("@")) {
                return "variables (" + t.text().toLowerCase(Locale.ROOT) + ") are not allowed on MariaDB";
            }
            if (t.kind() == Kind.VARIABLE && t.text().startsWith(":") || t.isSymbol(":") && i + 1 < tokens.size()
                    && tokens.get(i + 1).isSymbol("=")) {
                return "assignments (:=) are not allowed on MariaDB";
            }
        }
        return null;
    }

    /** {@code LOCK IN SHARE MODE}, MySQL's older row lock. */
    static String lockInShareMode(List<Token> tokens) {
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (tokens.get(i).isWord("lock") && tokens.get(i + 1).isWord("in")) {
                return "LOCK IN SHARE MODE is not allowed; only a plain SELECT or WITH query runs on MariaDB";
            }
        }
        return null;
    }

    @Override
    public boolean beginStatement(Connection connection, long remainingMillis, String role) throws SQLException {
        double seconds = Math.max(1, remainingMillis) / 1000.0;
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION max_statement_time = " + String.format(Locale.ROOT, "%.3f", seconds)
                    + ", tmp_table_size = " + TMP_TABLE_SIZE + ", max_heap_table_size = " + TMP_TABLE_SIZE
                    + ", sort_buffer_size = " + SORT_BUFFER_SIZE + ", join_buffer_size = " + JOIN_BUFFER_SIZE
                    + ", max_join_size = " + MAX_JOIN_SIZE + ", max_recursive_iterations = " + MAX_RECURSIVE_ITERATIONS
                    + ", lock_wait_timeout = " + Math.max(1, (long) Math.ceil(seconds))
                    + ", innodb_lock_wait_timeout = " + Math.max(1, (long) Math.ceil(seconds)));
            s.execute("START TRANSACTION READ ONLY");
        }
        return true;
    }

    /** MariaDB stops a killed query at its next check (a row or a sort pass): a tenth of the budget, at most 500 ms. */
    @Override
    public long interruptLeadMillis(long budgetMillis) {
        return Math.min(500, budgetMillis / 10);
    }

    @Override
    public void resetSession(Connection connection) throws SQLException {
        connection.rollback();
        connection.unwrap(org.mariadb.jdbc.Connection.class).reset();
        try (Statement s = connection.createStatement()) {
            // what COM_RESET_CONNECTION restores, set again: a reset the server skipped leaves no statement's limits behind
            s.execute("SET SESSION tx_read_only = 1, max_recursive_iterations = " + MAX_RECURSIVE_ITERATIONS
                    + ", max_statement_time = DEFAULT, tmp_table_size = DEFAULT, max_heap_table_size = DEFAULT,"
                    + " sort_buffer_size = DEFAULT, join_buffer_size = DEFAULT, max_join_size = DEFAULT,"
                    + " lock_wait_timeout = DEFAULT, innodb_lock_wait_timeout = DEFAULT, sql_select_limit = DEFAULT");
        }
        connection.setAutoCommit(false);
    }
}

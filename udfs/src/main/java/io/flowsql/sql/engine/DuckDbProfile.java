package io.flowsql.sql.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * DuckDB: PostgreSQL's lexer and JSqlParser's PostgreSQL dialect ({@code [..]} lists and subscripts); the guard
 * refuses what PostgreSQL's does plus DuckDB's file, network and catalog functions and a file read by a string or a
 * file-like name where a table belongs ({@code FROM '/etc/passwd'}, {@code FROM /**&#47; 'x'}, {@code FROM "x.csv"}).
 * The instance itself is locked (no external access, a memory limit, bounded temporary files); a session gets a fresh
 * random seed after each statement.
 */
public final class DuckDbProfile implements EngineProfile {
    /** DuckDB's facts: PostgreSQL's lexer and JSqlParser dialect, DuckDB's own types and error wording. */
    private static final EngineFacts FACTS = new EngineFacts("DuckDB", "jdbc:duckdb:", SqlTokens.Lexing.POSTGRES,
            TokenRules::postgresParser, true, new EngineFacts.ColumnTypes("BIGINT", "DOUBLE", "BLOB", "VARCHAR"),
            ErrorWording.load("duckdb"));

    static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
            "read_csv", "read_csv_auto", "read_parquet", "parquet_scan", "parquet_metadata", "parquet_schema",
            "parquet_file_metadata", "parquet_kv_metadata", "read_json", "read_json_auto", "read_json_objects",
            "read_ndjson", "read_ndjson_auto", "read_ndjson_objects", "read_text", "read_blob", "glob", "sniff_csv",
            "iceberg_scan", "iceberg_metadata", "delta_scan", "postgres_scan", "postgres_query", "postgres_execute",
            "sqlite_scan", "sqlite_attach", "mysql_scan", "mysql_query", "query", "query_table", "getenv", "duckdb_secrets",
            "which_secret", "load_aws_credentials", "duckdb_extensions", "duckdb_settings", "current_setting",
            "read_xlsx", "st_read", "httpfs", "http_get", "http_post", "pragma_database_list", "duckdb_databases",
            "json_execute_serialized_sql");

    /** Functions that build one whole value in a single call ({@link TokenRules#unboundedBuilder}). */
    static final Set<String> BUILDERS = Set.of("range", "generate_series", "repeat", "lpad", "rpad", "list_resize",
            "array_resize", "array_fill");

    /** A table name DuckDB would read as a file (a replacement scan): a path, a URL or a data file's extension. */
    private static final Pattern FILE_LIKE = Pattern.compile(
            "(?i).*([/\\\\:~]|\\.(csv|tsv|txt|parquet|json|jsonl|ndjson|gz|zst|xlsx|arrow|avro|db|duckdb|sqlite|ipc|feather)$).*");

    /** DuckDB's memory for one database instance (all its pooled connections): past it a statement fails, the JVM lives. */
    public static final String MEMORY_LIMIT = "512MB";
    /** Spill space of one instance, in its own temporary folder. */
    public static final String MAX_TEMP_DIRECTORY_SIZE = "1GB";
    /** Worker threads of one instance (the TaskManager's cores are shared with the job). */
    public static final int THREADS = 2;

    /**
     * Locks a freshly opened instance down before any statement reaches it: no extension installed or loaded, only the
     * declared folders readable, no other external access, the memory limit, spill files only in {@code temp} and at
     * most {@link #MAX_TEMP_DIRECTORY_SIZE}, and the configuration locked.
     */
    public static void lockDown(java.sql.Statement s, List<String> folders, java.nio.file.Path temp) throws SQLException {
        s.execute("SET autoinstall_known_extensions = false");
        s.execute("SET autoload_known_extensions = false");
        s.execute("SET memory_limit = '" + MEMORY_LIMIT + "'");
        s.execute("SET threads = " + THREADS);
        s.execute("SET temp_directory = '" + temp.toAbsolutePath().toString().replace("'", "''") + "'");
        s.execute("SET max_temp_directory_size = '" + MAX_TEMP_DIRECTORY_SIZE + "'");
        if (!folders.isEmpty()) {
            s.execute("SET allowed_directories = [" + String.join(", ",
                    folders.stream().map(f -> "'" + f.replace("'", "''") + "'").toList()) + "]");
        }
        s.execute("SET enable_external_access = false");
        s.execute("SET lock_configuration = true");
    }

    @Override
    public EngineFacts facts() {
        return FACTS;
    }

    @Override
    public String tokenRefusal(String sql, SqlLexer.Scan scan) {
        String engine = displayName();
        return TokenRules.first(() -> TokenRules.serverRules(sql, scan.tokens(), FORBIDDEN_FUNCTIONS::contains, engine),
                () -> TokenRules.stringAsTable(scan.tokens(), engine),
                () -> TokenRules.unboundedBuilder(scan.tokens(), BUILDERS, Set.of("range", "generate_series"), engine));
    }

    @Override
    public String parsedRefusal(Statement statement) {
        FileTables finder = new FileTables();
        try {
            finder.getTables(statement);
        } catch (RuntimeException e) {
            // a node the walk cannot follow: the token rules have run already
        }
        return finder.found == null ? null
                : "reading a file named as a table (" + finder.found + ") is not allowed on DuckDB";
    }

    /** Finds a table whose name DuckDB would read as a file. */
    private static final class FileTables extends TablesNamesFinder<Void> {
        private String found;

        @Override
        public <S> Void visit(Table table, S context) {
            String name = table.getFullyQualifiedName() == null ? null : table.getFullyQualifiedName().replace("\"", "");
            if (found == null && name != null && (name.startsWith("'") || FILE_LIKE.matcher(name).matches())) {
                found = name.toLowerCase(Locale.ROOT);
            }
            return super.visit(table, context);
        }
    }

    /** DuckDB stops an interrupted pipeline at its next chunk, a spilled sort or a large aggregate later: a sixth of the budget, at most 1 s. */
    @Override
    public long interruptLeadMillis(long budgetMillis) {
        return Math.min(1_000, budgetMillis / 6);
    }

    @Override
    public void resetSession(Connection connection) throws SQLException {
        connection.rollback();
        TokenRules.reseed(connection);
        connection.commit();
    }
}

package io.flowsql.sql.exec;

import io.flowsql.sql.DatabaseEngine;
import io.flowsql.sql.StatementBudget;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statement guard per engine: {@link SqlStatementGuard}'s rules for every engine (one SELECT/WITH, no hidden
 * statements, bounded text and nesting, bounded parse), and on a server engine stricter ones, because the engine itself
 * can write, wait, read files or run programs: the statement must parse as one SELECT (no fallback to the engine's own
 * check); no backslash and no {@code E'…'} or dollar-quoted strings (their lexing differs from the guard's, which could
 * hide a second statement); no session, transaction, file or extension commands anywhere in the code; none of the
 * engine's functions that sleep, lock, read or write files, reach other servers or run SQL given as a string; no
 * {@code SELECT … INTO} and no row locks; on DuckDB no file read by a string in FROM ({@code FROM '/etc/passwd'}).
 * The read-only transaction, the time limits and the locked-down engine settings stay the barrier behind it.
 */
public final class EngineStatementGuard {

    static final Set<String> POSTGRES_FUNCTIONS = Set.of(
            "pg_sleep", "pg_sleep_for", "pg_sleep_until", "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file",
            "pg_ls_logdir", "pg_ls_waldir", "pg_ls_tmpdir", "pg_ls_archive_statusdir", "lo_import", "lo_export", "lo_open",
            "lo_create", "lo_creat", "lo_unlink", "lo_put", "lo_get", "lo_from_bytea", "lo_truncate", "loread", "lowrite",
            "dblink", "dblink_exec", "dblink_connect", "dblink_connect_u", "dblink_send_query", "dblink_open", "dblink_fetch",
            "pg_advisory_lock", "pg_advisory_xact_lock", "pg_advisory_lock_shared", "pg_advisory_xact_lock_shared",
            "pg_try_advisory_lock", "pg_try_advisory_xact_lock", "pg_try_advisory_lock_shared",
            "pg_try_advisory_xact_lock_shared", "pg_advisory_unlock", "pg_advisory_unlock_all", "pg_advisory_unlock_shared",
            "set_config", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile",
            "pg_switch_wal", "pg_create_restore_point", "pg_promote", "pg_notify", "pg_file_write", "pg_file_rename",
            "pg_file_unlink", "pg_logdir_ls", "query_to_xml", "query_to_xml_and_xmlschema", "query_to_xmlschema",
            "cursor_to_xml", "cursor_to_xmlschema", "database_to_xml", "schema_to_xml", "table_to_xml", "nextval", "setval",
            "txid_current", "pg_current_xact_id", "pg_import_system_collations", "pg_stat_reset", "pg_log_backend_memory_contexts",
            "pg_create_logical_replication_slot", "pg_create_physical_replication_slot", "pg_drop_replication_slot",
            "pg_logical_emit_message", "pg_replication_origin_create", "pg_export_snapshot", "current_setting",
            "pg_settings_get_flags", "inet_server_addr", "inet_server_port", "version");

    static final Set<String> DUCKDB_FUNCTIONS = Set.of(
            "read_csv", "read_csv_auto", "read_parquet", "parquet_scan", "parquet_metadata", "parquet_schema",
            "parquet_file_metadata", "parquet_kv_metadata", "read_json", "read_json_auto", "read_json_objects",
            "read_ndjson", "read_ndjson_auto", "read_ndjson_objects", "read_text", "read_blob", "glob", "sniff_csv",
            "iceberg_scan", "iceberg_metadata", "delta_scan", "postgres_scan", "postgres_query", "postgres_execute",
            "sqlite_scan", "sqlite_attach", "mysql_scan", "mysql_query", "query", "query_table", "getenv", "duckdb_secrets",
            "which_secret", "load_aws_credentials", "duckdb_extensions", "duckdb_settings", "current_setting",
            "read_xlsx", "st_read", "httpfs", "http_get", "http_post", "pragma_database_list", "duckdb_databases");

    private static final Pattern SESSION_KEYWORD = Pattern.compile("\\b(copy|set|reset|do|call|listen|unlisten|notify|"
            + "prepare|execute|deallocate|discard|lock|vacuum|checkpoint|export|import|install|load|grant|revoke|"
            + "truncate|cluster|savepoint|release|abort|start\\s+transaction|into|for\\s+update|"
            + "for\\s+no\\s+key\\s+update|for\\s+share|for\\s+key\\s+share|detach|insert|update|delete|merge|returning|drop|create|alter)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern FROM_STRING = Pattern.compile("(?is)\\b(from|join)\\s*'");
    private static final Pattern ESCAPE_STRING = Pattern.compile("(?i)(\\b[eub]&?'|\\$[A-Za-z_0-9]*\\$)");

    private final SqlStatementGuard base;

    public EngineStatementGuard(SqlStatementGuard base) {
        this.base = base;
    }

    public EngineStatementGuard() {
        this(new SqlStatementGuard());
    }

    public SqlStatementGuard base() {
        return base;
    }

    /** The verdict on this engine; SQLite's is {@link SqlStatementGuard}'s unchanged. */
    public GuardVerdict check(DatabaseEngine engine, String sql, StatementBudget budget) {
        if (engine != DatabaseEngine.SQLITE && sql != null) {
            GuardVerdict lexical = lexical(engine, sql);
            if (lexical != null) {
                return lexical;
            }
        }
        GuardVerdict verdict = base.check(sql, budget, engine);
        if (engine == DatabaseEngine.SQLITE || !verdict.accepted()) {
            return verdict;
        }
        if (verdict.needsSqliteCheck()) {
            return GuardVerdict.refused("the statement could not be read as one SELECT query (on " + engine.displayName()
                    + " a statement must parse)");
        }
        return verdict;
    }

    /** Rules on the text itself, before anything parses it. */
    private static GuardVerdict lexical(DatabaseEngine engine, String sql) {
        if (sql.indexOf('\\') >= 0) {
            return GuardVerdict.refused("a backslash is not allowed in a statement on " + engine.displayName());
        }
        Matcher escape = ESCAPE_STRING.matcher(sql);
        if (escape.find()) {
            return GuardVerdict.refused("escape and dollar-quoted strings (" + escape.group(1) + ") are not allowed on "
                    + engine.displayName() + "; use '…' literals");
        }
        SqlLexer.Scan scan = SqlLexer.scan(sql);
        String code = scan.codeOnly();
        Matcher keyword = SESSION_KEYWORD.matcher(code);
        if (keyword.find()) {
            return GuardVerdict.refused(keyword.group(1).replaceAll("\\s+", " ").toUpperCase(Locale.ROOT)
                    + " is not allowed; only a plain SELECT or WITH query runs on " + engine.displayName());
        }
        Set<String> forbidden = engine == DatabaseEngine.POSTGRESQL ? POSTGRES_FUNCTIONS : DUCKDB_FUNCTIONS;
        Matcher call = Pattern.compile("(?i)\\b([a-z_][a-z_0-9]*)\\s*\\(").matcher(scan.namesUnquoted());
        while (call.find()) {
            String name = call.group(1).toLowerCase(Locale.ROOT);
            if (forbidden.contains(name) || name.startsWith("pg_") && engine == DatabaseEngine.POSTGRESQL
                    && (name.contains("advisory") || name.contains("read") || name.contains("ls_") || name.contains("file"))) {
                return GuardVerdict.refused("function " + name + "() is not allowed on " + engine.displayName());
            }
        }
        if (engine == DatabaseEngine.DUCKDB && FROM_STRING.matcher(sql).find()) {
            return GuardVerdict.refused("reading a file named by a string in FROM is not allowed on DuckDB");
        }
        return null;
    }
}

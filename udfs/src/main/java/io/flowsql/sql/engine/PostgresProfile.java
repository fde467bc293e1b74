package io.flowsql.sql.engine;

import io.flowsql.sql.RoleName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL: its lexer ({@code E'…'}, dollar quotes, nested comments, {@code [..]} subscripts); the guard refuses
 * escape and dollar-quoted strings, clauses that write or lock, and functions that sleep, lock, read files, reach
 * other servers or run SQL given as text; each statement runs in a {@code READ ONLY} transaction with
 * {@code statement_timeout}, {@code lock_timeout} and {@code work_mem} set locally, and afterwards {@code DISCARD ALL},
 * a fresh random seed and read-only session characteristics leave nothing for the next statement.
 */
public final class PostgresProfile implements EngineProfile {
    /** PostgreSQL's facts; a function or operator it lacks reads as the form, not as a missing name. */
    private static final EngineFacts FACTS = new EngineFacts("PostgreSQL", "jdbc:postgresql:", SqlTokens.Lexing.POSTGRES,
            TokenRules::postgresParser, true, new EngineFacts.ColumnTypes("BIGINT", "DOUBLE PRECISION", "BYTEA", "TEXT"),
            ErrorWording.load("postgresql"));

    private static final Logger LOG = LoggerFactory.getLogger(PostgresProfile.class);

    /** Memory one sort or hash of a statement may use before it spills to a temporary file (bounded by the server's temp_file_limit). */
    public static final String WORK_MEM = "32MB";

    static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
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

    @Override
    public EngineFacts facts() {
        return FACTS;
    }

    @Override
    public String defaultSchema() {
        return "public";
    }

    @Override
    public boolean failedStatementAbortsTransaction() {
        return true;
    }

    @Override
    public boolean loadsIntoOwnSchema() {
        return true;
    }

    @Override
    public String driverClass() {
        return "org.postgresql.Driver";
    }

    /** Every session read-only by default and on the declared schemas, no server-side prepared statements. */
    @Override
    public java.util.Properties connectionProperties(java.util.List<String> schemas, int connectSeconds) {
        java.util.Properties properties = new java.util.Properties();
        String searchPath = schemas.isEmpty() ? "" : " -c search_path=" + String.join(",", schemas);
        properties.setProperty("options", "-c default_transaction_read_only=on" + searchPath);
        properties.setProperty("prepareThreshold", "0");
        properties.setProperty("ApplicationName", "flowsql");
        properties.setProperty("readOnlyMode", "always");
        properties.setProperty("connectTimeout", String.valueOf(connectSeconds));
        properties.setProperty("loginTimeout", String.valueOf(connectSeconds));
        return properties;
    }

    static boolean forbidden(String name) {
        return FORBIDDEN_FUNCTIONS.contains(name) || name.startsWith("pg_")
                && (name.contains("advisory") || name.contains("read") || name.contains("ls_") || name.contains("file"));
    }

    @Override
    public String tokenRefusal(String sql, SqlLexer.Scan scan) {
        String engine = displayName();
        return TokenRules.first(() -> TokenRules.serverRules(sql, scan.tokens(), PostgresProfile::forbidden, engine),
                () -> TokenRules.unboundedBuilder(scan.tokens(), Set.of("repeat", "lpad", "rpad", "array_fill"), Set.of(), engine));
    }

    @Override
    public boolean setsRoles() {
        return true;
    }

    @Override
    public boolean beginStatement(Connection connection, long remainingMillis, String role) throws SQLException {
        connection.setReadOnly(true);
        long ms = Math.max(1, remainingMillis);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TRANSACTION READ ONLY");
            s.execute("SET LOCAL statement_timeout = " + ms);
            s.execute("SET LOCAL lock_timeout = " + ms);
            s.execute("SET LOCAL idle_in_transaction_session_timeout = " + Math.max(ms, 1000));
            s.execute("SET LOCAL work_mem = '" + WORK_MEM + "'");
        }
        return role == null || setRole(connection, role);
    }

    /** {@code SET LOCAL ROLE}; false (the reason logged, not shown to the model) when the database refuses it. */
    private static boolean setRole(Connection connection, String role) {
        try (Statement s = connection.createStatement()) {
            s.execute("SET LOCAL ROLE " + RoleName.quoted(role));
            return true;
        } catch (SQLException e) {
            LOG.warn("SET LOCAL ROLE {} failed: {}", role, e.getSQLState());
            return false;
        }
    }

    @Override
    public void resetSession(Connection connection) throws SQLException {
        connection.rollback();
        connection.setAutoCommit(true);
        try (Statement s = connection.createStatement()) {
            s.execute("DISCARD ALL");
            s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
        }
        TokenRules.reseed(connection);
    }
}

package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Hostile statements against a real PostgreSQL and a real DuckDB file: each is refused or stopped with its reason
 * printed; afterwards every table's row count (PostgreSQL) and the database file's SHA-256 (DuckDB) are unchanged, no
 * file appeared outside the data, and no lock, large object, prepared transaction or session setting was left behind.
 * Then the engines' own barriers are tried without the guard (the reader role on PostgreSQL, the locked DuckDB
 * instance): they refuse too.
 */
class HostileServerSqlTest {

    private static List<String> postgres(Path outside) {
        String out = outside.resolve("pg-out.txt").toString();
        return List.of(
                "SELECT pg_sleep(60)", "SELECT pg_catalog.pg_sleep(60)", "SELECT \"pg_sleep\"(60)", "SELECT pg_sleep_for('1 minute')",
                "COPY singer TO PROGRAM 'touch " + out + "'", "COPY (SELECT 1) TO '" + out + "'",
                "SELECT pg_read_file('/etc/passwd')", "SELECT pg_read_binary_file('/etc/passwd')", "SELECT pg_ls_dir('.')",
                "SELECT lo_import('/etc/passwd')", "SELECT lo_export(1, '" + out + "')",
                "SELECT dblink('dbname=postgres', 'DROP TABLE singer')", "SELECT dblink_exec('DELETE FROM singer')",
                "CREATE TEMP TABLE t AS SELECT 1", "SELECT * INTO TEMP t FROM singer", "SELECT * INTO stolen FROM singer",
                "SET ROLE postgres", "SET default_transaction_read_only = off", "SET SESSION AUTHORIZATION postgres",
                "RESET ALL", "DO $$ BEGIN DELETE FROM singer; END $$", "CALL p()", "LISTEN x", "NOTIFY x", "UNLISTEN *",
                "PREPARE TRANSACTION 'x'", "PREPARE q AS DELETE FROM singer", "EXECUTE q", "DEALLOCATE ALL",
                "SELECT pg_advisory_lock(1)", "SELECT pg_try_advisory_lock(1)", "SELECT pg_advisory_xact_lock(1)",
                "SELECT set_config('default_transaction_read_only', 'off', false)", "SELECT current_setting('data_directory')",
                "SELECT pg_terminate_backend(pg_backend_pid())", "SELECT pg_reload_conf()", "SELECT nextval('s')",
                "SELECT query_to_xml('DELETE FROM singer', true, true, '')", "SELECT * FROM singer FOR UPDATE",
                "SELECT * FROM singer FOR SHARE", "LOCK TABLE singer", "VACUUM singer", "ANALYZE singer", "DISCARD ALL",
                "DELETE FROM singer", "UPDATE singer SET age = 0", "INSERT INTO singer (singer_id) VALUES (99)",
                "DROP TABLE singer", "TRUNCATE singer", "ALTER TABLE singer ADD COLUMN x int", "GRANT ALL ON singer TO PUBLIC",
                "BEGIN; DELETE FROM singer; COMMIT", "SELECT 1; DELETE FROM singer", "COMMIT; DELETE FROM singer",
                "SELECT E'a\\'' ; DELETE FROM singer; --'", "SELECT $$;$$; DELETE FROM singer", "SELECT $t$x$t$",
                "SELECT 1 /* /* */ ; DELETE FROM singer; /* */ */", "WITH d AS (DELETE FROM singer RETURNING *) SELECT * FROM d",
                "SELECT count(*) FROM generate_series(1, 10000000000)",
                "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b",
                "SELECT repeat('x', 100000000)", "SELECT string_agg(repeat('x', 1000000), '') FROM generate_series(1, 200)",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
                "SELECT * FROM pg_shadow", "SELECT txid_current()", "CHECKPOINT", "SELECT pg_switch_wal()",
                "SELECT pg_create_restore_point('x')", "SELECT version()");
    }

    private static List<String> duckdb(Path outside) {
        String out = outside.resolve("duck-out.csv").toString();
        return List.of(
                "COPY singer TO '" + out + "'", "COPY (SELECT 1) TO '" + out + "' (FORMAT csv)", "EXPORT DATABASE '" + outside + "'",
                "ATTACH '" + outside.resolve("evil.duckdb") + "' AS evil", "ATTACH ':memory:' AS m", "DETACH main",
                "INSTALL httpfs", "LOAD httpfs", "FORCE INSTALL httpfs", "SELECT * FROM read_csv('/etc/passwd')",
                "SELECT * FROM read_csv_auto('/etc/passwd')", "SELECT * FROM \"read_csv\"('/etc/passwd')",
                "SELECT * FROM read_text('/etc/passwd')", "SELECT * FROM read_blob('/etc/passwd')", "SELECT * FROM glob('/*')",
                "SELECT * FROM '/etc/passwd'", "SELECT * FROM 'https://example.com/x.csv'", "SELECT * FROM read_parquet('/x.parquet')",
                "SELECT * FROM sniff_csv('/etc/passwd')", "SELECT * FROM query('DELETE FROM singer')",
                "SELECT getenv('HOME')", "SELECT * FROM duckdb_secrets()", "SELECT * FROM duckdb_settings()",
                "SET enable_external_access = true", "SET allowed_directories = ['/']", "SET lock_configuration = false",
                "SET temp_directory = '" + outside + "'", "SET extension_directory = '" + outside + "'",
                "SET autoinstall_known_extensions = true", "RESET ALL", "PRAGMA enable_profiling",
                "PRAGMA profiling_output = '" + out + "'", "CALL pragma_database_list()", "CHECKPOINT", "VACUUM",
                "CREATE TEMP TABLE t AS SELECT 1", "CREATE TABLE t AS SELECT 1", "CREATE MACRO m() AS 1",
                "CREATE SECRET (TYPE s3)", "DELETE FROM singer", "UPDATE singer SET age = 0", "DROP TABLE singer",
                "INSERT INTO singer (singer_id) VALUES (99)", "SELECT 1; DELETE FROM singer", "USE memory",
                "SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 3",
                "SELECT sum(hash(a.i + b.i)) FROM range(1000000) a(i), range(1000000) b(i)",
                "SELECT repeat('x', 100000000)", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
                "SUMMARIZE singer", "DESCRIBE singer", "SHOW TABLES", "PIVOT singer ON country USING count(*)");
    }

    @Test
    void hostileStatementsChangeNothingOnEitherEngine() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        DatabaseRegistry registry = servers.registry();
        Path outside = Files.createTempDirectory("flowsql-hostile-outside");
        Path duckFile = servers.duckDir.resolve("concert_singer.duckdb");
        Map<String, Long> rowsBefore = pgRowCounts(servers);
        String duckBefore = sha256(duckFile);
        JdbcSafeExecutor sql = new JdbcSafeExecutor(registry, SqlExecutorConfig.defaults().withTimeoutMillis(1_500)
                .withMaxBytes(1L << 20), new JdbcPools(new Credentials(Map.of()), 3_000));
        List<String> admitted = new ArrayList<>();
        try {
            for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
                List<String> statements = db.startsWith("pg") ? postgres(outside) : duckdb(outside);
                for (String statement : statements) {
                    long start = System.nanoTime();
                    ExecutionResult r = sql.execute(db, statement);
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    System.out.printf("%-20s %-9s %5d ms  %s  -> %s%n", db, r.ok() ? (r.truncated() ? "TRUNCATED" : "RAN") : r.error().kind(),
                            ms, statement.replace('\n', ' '), r.ok() ? r.rows().size() + " rows" : r.error().message());
                    // bounded: a single huge value is transferred whole before the byte budget sees it (documented)
                    assertThat(ms).as(db + ": " + statement).isLessThan(20_000);
                    if (r.ok() && !r.truncated()) {
                        admitted.add(db + ": " + statement);
                    }
                }
                assertThat(sql.execute(db, "SELECT count(*) FROM singer").ok()).as(db + " still answers").isTrue();
            }
        } finally {
            sql.close();
        }
        assertThat(admitted).as("hostile statements that ran to completion").isEmpty();
        assertThat(pgRowCounts(servers)).isEqualTo(rowsBefore);
        assertThat(sha256(duckFile)).isEqualTo(duckBefore);
        try (var files = Files.list(outside)) {
            assertThat(files.toList()).as("files written outside the data").isEmpty();
        }
        try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
            assertThat(count(s, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")).isZero();
            assertThat(count(s, "SELECT count(*) FROM pg_prepared_xacts")).isZero();
            assertThat(count(s, "SELECT count(*) FROM pg_largeobject_metadata")).isZero();
            assertThat(count(s, "SELECT count(*) FROM pg_stat_activity WHERE usename = '" + ServerDatabases.READER
                    + "' AND state = 'active'")).isZero();
        }
    }

    @Test
    void enginesRefuseWithoutTheGuard() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        DatabaseRegistry registry = servers.registry();
        Path outside = Files.createTempDirectory("flowsql-barrier-outside");
        try (JdbcPools pools = new JdbcPools(new Credentials(Map.of()), 3_000)) {
            try (Connection c = pools.connection(registry.declaration("pg_concert_singer").orElseThrow())) {
                c.setAutoCommit(true);
                for (String raw : List.of("DELETE FROM singer", "CREATE TABLE concert_singer.evil (x int)", "CREATE TEMP TABLE t (x int)",
                        "SET ROLE postgres", "COPY singer TO PROGRAM 'touch " + outside.resolve("p") + "'",
                        "SELECT pg_read_file('/etc/passwd')", "SELECT lo_import('/etc/passwd')")) {
                    assertThatThrownBy(() -> {
                        try (Statement s = c.createStatement()) {
                            s.execute(raw);
                        }
                    }).as("reader role: " + raw).isInstanceOf(java.sql.SQLException.class);
                    System.out.println("PostgreSQL without the guard refuses: " + raw);
                }
            }
            try (Connection c = pools.connection(registry.declaration("duck_concert_singer").orElseThrow())) {
                c.setAutoCommit(true);
                for (String raw : List.of("DELETE FROM singer", "COPY singer TO '" + outside.resolve("d.csv") + "'",
                        "SET enable_external_access = true", "SET lock_configuration = false",
                        "SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM '/etc/passwd'",
                        "ATTACH '" + outside.resolve("e.duckdb") + "' AS e", "INSTALL httpfs")) {
                    assertThatThrownBy(() -> {
                        try (Statement s = c.createStatement()) {
                            s.execute(raw);
                        }
                    }).as("locked DuckDB: " + raw).isInstanceOf(java.sql.SQLException.class);
                    System.out.println("DuckDB without the guard refuses: " + raw);
                }
            }
        }
        try (var files = Files.list(outside)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    private static long count(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static Map<String, Long> pgRowCounts(ServerDatabases servers) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT table_schema || '.' || table_name FROM information_schema.tables "
                    + "WHERE table_schema NOT IN ('pg_catalog', 'information_schema')")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String t : tables) {
                counts.put(t, count(s, "SELECT count(*) FROM " + t));
            }
        }
        return counts;
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}

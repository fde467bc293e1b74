package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.RoutingSafeExecutor;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.registry.ValueSampling;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Ordinary SQL that the guard once refused on PostgreSQL and DuckDB ({@code 'B'}, {@code 'Vitamin E'}, {@code 'Plan B'},
 * {@code 'a,b'}, columns named like commands) runs on SQLite, a real PostgreSQL, a real DuckDB file and a real MariaDB
 * (names MariaDB reserves in backticks), with the same rows on all four; and what only looks ordinary ({@code FROM /**&#47; '/path'}) is still refused on DuckDB.
 */
class OrdinarySqlOnEveryEngineTest {

    private static final String[] DDL = {
        "CREATE TABLE grades (id INTEGER PRIMARY KEY, grade TEXT, vitamin TEXT, plan TEXT, tags TEXT, \"set\" TEXT, load INTEGER,"
                + " lock INTEGER, cluster TEXT, import TEXT, export TEXT, call TEXT, copy TEXT)",
        "INSERT INTO grades VALUES (1, 'B', 'Vitamin E', 'Plan B', 'a,b', 's1', 10, 0, 'c1', 'i1', 'e1', 'x', 'E')",
        "INSERT INTO grades VALUES (2, 'A', 'Vitamin C', 'Plan A', 'c', 's1', 20, 1, 'c2', 'i2', 'e2', 'U', 'b')",
        "INSERT INTO grades VALUES (3, 'E', 'Vitamin B12', 'Plan B', 'a,b', 's2', 30, 1, 'c1', 'i3', 'e3', 'y', 'B')"
    };

    /** Statement → expected rows (as text), the same on every engine. */
    private static final Map<String, String> ORDINARY = Map.ofEntries(
            Map.entry("SELECT id FROM grades WHERE grade = 'B'", "[[1]]"),
            Map.entry("SELECT id FROM grades WHERE vitamin = 'Vitamin E'", "[[1]]"),
            Map.entry("SELECT id FROM grades WHERE plan = 'Plan B' ORDER BY id", "[[1], [3]]"),
            Map.entry("SELECT id FROM grades WHERE tags = 'a,b' ORDER BY id", "[[1], [3]]"),
            Map.entry("SELECT id FROM grades WHERE grade IN ('B','E') AND copy<>'b' ORDER BY id", "[[1], [3]]"),
            Map.entry("SELECT \"set\", load, lock, cluster, import, export, call, copy FROM grades WHERE id = 1",
                    "[[s1, 10, 0, c1, i1, e1, x, E]]"),
            Map.entry("SELECT sum(load) FROM grades WHERE lock = 1 AND import <> 'x' AND export LIKE 'e%'", "[[50]]"),
            Map.entry("SELECT cluster, max(copy) FROM grades WHERE call IN ('x', 'U') GROUP BY cluster ORDER BY cluster",
                    "[[c1, E], [c2, b]]"),
            Map.entry("SELECT id FROM grades WHERE grade = 'E' OR grade = 'U' -- grade 'E'\n", "[[3]]"),
            Map.entry("SELECT id /* the id */ FROM grades WHERE plan = 'Plan A'", "[[2]]"));

    /** Bare {@code set} as a name: PostgreSQL and DuckDB take it, SQLite's own grammar does not (SET is reserved there). */
    private static final Map<String, String> SERVER_ONLY = Map.of(
            "SELECT set, load, lock, cluster, import, export, call, copy FROM grades WHERE id = 1", "[[s1, 10, 0, c1, i1, e1, x, E]]",
            "SELECT g.set, count(*) AS n FROM grades AS g GROUP BY g.set ORDER BY g.set", "[[s1, 2], [s2, 1]]");

    /** On MariaDB {@code "…"} is a string and {@code set}, {@code load}, {@code lock}, {@code call} are reserved: backticks. */
    static String forMariaDb(String sql) {
        return sql.replace("\"set\"", "`set`").replaceAll("\\b(load|lock|call)\\b", "`$1`");
    }

    /** MariaDB's own ordinary SQL: {@code "…"} strings, {@code #} comments, {@code 2--1} as arithmetic, a backtick name. */
    private static final Map<String, String> MARIADB_ONLY = Map.of(
            "SELECT id FROM grades WHERE grade = \"B\"", "[[1]]",
            "SELECT id FROM grades WHERE plan = \"Plan B\" AND tags = 'a,b' ORDER BY id # the plan\n", "[[1], [3]]",
            "SELECT id FROM grades WHERE id = 2--1", "[[3]]",
            "SELECT `set`, count(*) AS n FROM grades GROUP BY `set` ORDER BY `set`", "[[s1, 2], [s2, 1]]");

    static Path work;
    static SafeExecutor sql;
    static MariaDbServer maria;

    @BeforeAll
    static void start() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        work = Files.createTempDirectory("flowsql-ordinary");
        Path sqliteDir = work.resolve("sqlite").resolve("ordinary");
        Files.createDirectories(sqliteDir);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqliteDir.resolve("ordinary.sqlite"))) {
            load(c);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + work.resolve("ordinary.duckdb"))) {
            load(c);
        }
        try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS ordinary CASCADE");
            s.execute("CREATE SCHEMA ordinary");
            s.execute("SET search_path = ordinary");
            for (String ddl : DDL) {
                s.execute(ddl);
            }
            s.execute("GRANT USAGE ON SCHEMA ordinary TO " + ServerDatabases.READER);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA ordinary TO " + ServerDatabases.READER);
        }
        maria = MariaDbServer.startIfInstalled(List.of());
        java.util.List<DatabaseDeclaration> declared = new java.util.ArrayList<>();
        if (maria != null) {
            try (Connection admin = maria.admin(); Statement s = admin.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS ordinary");
                s.execute("CREATE DATABASE ordinary");
                s.execute("USE ordinary");
                for (String ddl : DDL) {
                    s.execute(forMariaDb(ddl));
                }
            }
            maria.grantReader("ordinary");
            declared.add(maria.declaration("maria_ordinary", "ordinary", 2));
        }
        DatabaseLocator locator = new DatabaseLocator(List.of(work.resolve("sqlite")), List.of());
        declared.addAll(List.of(
                new DatabaseDeclaration("pg_ordinary", DatabaseEngine.POSTGRESQL, servers.pgUrl(), ServerDatabases.READER, "",
                        servers.secretsFile.toString(), List.of("ordinary"), List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults()),
                new DatabaseDeclaration("duck_ordinary", DatabaseEngine.DUCKDB, "jdbc:duckdb:" + work.resolve("ordinary.duckdb"),
                        "", "", "", List.of(), List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults())));
        DatabaseRegistry registry = new DatabaseRegistry(locator, declared);
        SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(10_000);
        sql = new RoutingSafeExecutor(registry, new SqliteSafeExecutor(locator, config),
                new JdbcSafeExecutor(registry, config, new JdbcPools(new Credentials(Map.of()), 5_000)));
    }

    private static void load(Connection c) throws Exception {
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) {
                s.execute(ddl);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (sql != null) {
            sql.close();
        }
        if (maria != null) {
            maria.close();
        }
    }

    @Test
    void ordinarySqlRunsWithTheSameRowsOnEveryEngine() {
        for (String db : List.of("ordinary", "pg_ordinary", "duck_ordinary", "maria_ordinary")) {
            if (db.startsWith("maria") && maria == null) {
                continue;
            }
            Map<String, String> statements = new java.util.TreeMap<>();
            ORDINARY.forEach((k, v) -> statements.put(db.startsWith("maria") ? forMariaDb(k) : k, v));
            if (db.startsWith("maria")) {
                statements.putAll(MARIADB_ONLY);
            } else if (!db.equals("ordinary")) {
                statements.putAll(SERVER_ONLY);
            }
            for (Map.Entry<String, String> q : statements.entrySet()) {
                ExecutionResult r = sql.execute(db, q.getKey(), sql.newBudget());
                System.out.printf("%-14s %-7s %s -> %s%n", db, r.ok() ? "RAN" : r.error().kind(), q.getKey().replace('\n', ' '),
                        r.ok() ? r.rows() : r.error().message());
                assertThat(r.error()).as(db + ": " + q.getKey()).isNull();
                assertThat(r.rows().toString()).as(db + ": " + q.getKey()).isEqualTo(q.getValue());
            }
        }
    }

    @Test
    void aStringWhereATableBelongsIsStillRefusedOnDuckDb() throws Exception {
        Path secret = work.resolve("secret.csv");
        Files.writeString(secret, "a\nsecret\n");
        for (String hostile : List.of("SELECT * FROM /**/ '" + secret + "'", "SELECT * FROM '" + secret + "'",
                "SELECT * FROM grades, '" + secret + "'", "SELECT * FROM ('" + secret + "')",
                "SELECT * FROM grades JOIN -- x\n '" + secret + "' ON true", "SELECT * FROM \"" + secret + "\"",
                "SELECT * FROM \"secret.csv\"")) {
            ExecutionResult r = sql.execute("duck_ordinary", hostile, sql.newBudget());
            System.out.println("duck_ordinary " + (r.ok() ? "RAN " + r.rows() : r.error().kind() + " " + r.error().message())
                    + "  <- " + hostile.replace('\n', ' '));
            assertThat(r.ok()).as(hostile).isFalse();
            assertThat(r.error().kind()).as(hostile).isEqualTo(SqlError.Kind.REFUSED);
        }
    }
}

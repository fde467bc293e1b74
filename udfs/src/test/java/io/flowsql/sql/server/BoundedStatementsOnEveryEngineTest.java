package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.StatementBudget;
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
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statements that run too long or grow too big stop on every engine: each either is refused before it runs (a value
 * built in one call, which no engine can interrupt or count) or stops within 1.2x its time budget, by the engine's own
 * limit, DuckDB's memory limit or the watchdog's cancel; the JVM lives through all of them (its peak heap and the
 * process's peak resident memory are printed). Connections come back reset: a {@code setseed()} does not reach the next
 * statement, and an idle PostgreSQL connection is read-only.
 */
class BoundedStatementsOnEveryEngineTest {

    private static final long BUDGET_MILLIS = 4_000;

    static ServerDatabases servers;
    static DatabaseRegistry registry;
    static JdbcPools pools;
    static SafeExecutor sql;
    static MariaDbServer maria;

    @BeforeAll
    static void start() throws Exception {
        servers = ServerDatabases.get();
        maria = MariaDbServer.startIfInstalled(List.of("concert_singer"));
        List<DatabaseDeclaration> declared = new java.util.ArrayList<>(List.of(
                new DatabaseDeclaration("pg_one", DatabaseEngine.POSTGRESQL, servers.pgUrl(), ServerDatabases.READER, "",
                        servers.secretsFile.toString(), List.of("concert_singer"), List.of(), 1, 0, 0, 0, 0, ValueSampling.defaults()),
                new DatabaseDeclaration("duck_one", DatabaseEngine.DUCKDB,
                        "jdbc:duckdb:" + servers.duckDir.resolve("concert_singer.duckdb"), "", "", "", List.of(), List.of(), 1, 0, 0,
                        0, 0, ValueSampling.defaults())));
        if (maria != null) {
            declared.add(maria.declaration("maria_one", "concert_singer", 1));
        }
        registry = new DatabaseRegistry(SpiderData.locator(), declared);
        pools = new JdbcPools(new Credentials(Map.of()), 5_000);
        SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(BUDGET_MILLIS).withMaxBytes(16L << 20);
        sql = new RoutingSafeExecutor(registry, new SqliteSafeExecutor(SpiderData.locator(), config),
                new JdbcSafeExecutor(registry, config, pools));
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

    /** (database, statement): each must not run to completion. */
    private static final List<List<String>> HEAVY = List.of(
            List.of("duck_one", "SELECT count(*) FROM (SELECT unnest(range(100000000)))"),
            List.of("duck_one", "SELECT list(range) FROM range(50000000)"),
            List.of("duck_one", "SELECT length(repeat('x', 500000000))"),
            List.of("duck_one", "SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 3"),
            List.of("duck_one", "SELECT sum(hash(a.i + b.i)) FROM range(1000000) a(i), range(1000000) b(i)"),
            List.of("duck_one", "SELECT length(string_agg(repeat('x', 1000), '')) FROM range(3000000)"),
            List.of("duck_one", "SELECT count(*) FROM (SELECT i FROM range(200000000) t(i) ORDER BY hash(i))"),
            List.of("pg_one", "SELECT count(*) FROM generate_series(1, 10000000000)"),
            List.of("pg_one", "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b"),
            List.of("pg_one", "SELECT length(string_agg(repeat('x', 1000000), '')) FROM generate_series(1, 1000)"),
            List.of("pg_one", "SELECT length(string_agg(md5(g::text), '')) FROM generate_series(1, 30000000) g"),
            List.of("pg_one", "SELECT length(repeat('x', 500000000))"),
            List.of("maria_one", "SELECT sum(crc32(seq)) FROM seq_1_to_900000000"),
            List.of("maria_one", "SELECT count(*) FROM seq_1_to_30000 a, seq_1_to_30000 b WHERE (a.seq ^ b.seq) % 7 = 3"),
            List.of("maria_one", "SELECT seq FROM seq_1_to_200000000 ORDER BY crc32(seq) DESC LIMIT 1"),
            List.of("maria_one", "SELECT count(DISTINCT concat(seq, repeat('x', 200))) FROM seq_1_to_100000000"),
            List.of("maria_one", "SELECT length(repeat('x', 500000000))"),
            List.of("maria_one", "SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g,"
                    + " singer h, singer i, singer j, singer k, singer l"),
            List.of("concert_singer", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"),
            List.of("concert_singer", "SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g,"
                    + " singer h, singer i, singer j, singer k, singer l"));

    /**
     * 1.2x the budget; 1.5x when other processes overload the machine (load average above its cores: the stop itself
     * then waits for a core). Either is far below what an unbounded statement takes (minutes, or 6x the budget before).
     */
    private static long stopLimitMillis() {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        boolean overloaded = load > Runtime.getRuntime().availableProcessors();
        long limit = BUDGET_MILLIS * (overloaded ? 15 : 12) / 10;
        System.out.printf("load average %.1f: a statement must stop within %d ms%n", load, limit);
        return limit;
    }

    @Test
    void everyHeavyStatementIsRefusedOrStopsWithinItsBudget() throws Exception {
        long limit = stopLimitMillis();
        String mariaBefore = maria == null ? null : peakRss(mariadbStatus());
        for (List<String> c : HEAVY) {
            if (c.get(0).startsWith("maria") && maria == null) {
                continue;
            }
            StatementBudget budget = StatementBudget.startingNow(BUDGET_MILLIS);
            long start = System.nanoTime();
            ExecutionResult r = sql.execute(c.get(0), c.get(1), budget);
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("%-15s %-9s %6d ms (limit %d)  heap %4d MB  rss peak %s  %s -> %s%n", c.get(0),
                    r.ok() ? "RAN" : r.error().kind(), ms, limit, usedHeapMb(), peakRss(), c.get(1),
                    r.ok() ? r.rows() : r.error().message());
            assertThat(r.ok() && !r.truncated()).as(c.get(1) + " ran to completion").isFalse();
            assertThat(ms).as(c.get(1) + " stopped within " + limit + " ms").isLessThanOrEqualTo(limit);
            assertThat(sql.execute(c.get(0), "SELECT count(*) FROM singer").ok()).as(c.get(0) + " answers afterwards").isTrue();
        }
        if (maria != null) {
            String mariaPeak = peakRss(mariadbStatus());
            System.out.println("mariadbd peak resident memory: " + mariaBefore + " after loading, " + mariaPeak
                    + " after the heavy statements (bound " + MARIADB_PEAK_KB / 1024 + " MB)");
            assertThat(Long.parseLong(mariaPeak.replace("kB", "").trim())).as("mariadbd peak resident kB")
                    .isLessThan(MARIADB_PEAK_KB);
        }
    }

    /**
     * mariadbd's resident memory may not pass this, whatever a statement asks: its own buffers (InnoDB's pool) plus one
     * statement's bounded temporary tables, sort and join buffers; a sort or DISTINCT past them goes to disk.
     */
    private static final long MARIADB_PEAK_KB = 512L * 1024;

    /** The server's own {@code /proc/<pid>/status} (its pid file is in the test server's folder). */
    private static Path mariadbStatus() throws Exception {
        return Path.of("/proc", Files.readString(maria.dir.resolve("mysqld.pid")).trim(), "status");
    }

    @Test
    void aSeedDoesNotReachTheNextStatement() throws Exception {
        for (String db : List.of("pg_one", "duck_one")) {
            double seeded = firstRandomAfterSeed(db);
            ExecutionResult set = sql.execute(db, "SELECT setseed(0.25)");
            assertThat(set.error()).as(db).isNull();
            ExecutionResult next = sql.execute(db, "SELECT random()");
            System.out.println(db + ": random() right after setseed(0.25) would be " + seeded + "; the next statement got "
                    + next.rows());
            assertThat(((Number) next.rows().get(0).get(0)).doubleValue()).as(db).isNotEqualTo(seeded);
        }
    }

    /** A recursive CTE stops at max_recursive_iterations (100 000 rounds), not at the server's 4 294 967 295. */
    @Test
    void aMariaDbRecursionIsBounded() {
        org.junit.jupiter.api.Assumptions.assumeTrue(maria != null, "mariadbd not installed");
        ExecutionResult r = sql.execute("maria_one",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r");
        System.out.println("MariaDB endless recursive CTE -> " + (r.ok() ? r.rows() : r.error()));
        assertThat(r.ok() ? ((Number) r.rows().get(0).get(0)).longValue() : 0L).isLessThanOrEqualTo(100_001L);
    }

    /** After a statement, a pooled MariaDB connection has no user variable, no changed setting and is read-only. */
    @Test
    void aMariaDbSessionIsResetAndReadOnly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(maria != null, "mariadbd not installed");
        DatabaseDeclaration d = registry.declaration("maria_one").orElseThrow();
        try (Connection c = pools.connection(d); Statement s = c.createStatement()) {
            d.engine().profile().beginStatement(c, 2_000, null);
            s.execute("SET @leak = 42, SESSION sql_select_limit = 1, SESSION max_recursive_iterations = 1000000000");
            d.engine().profile().resetSession(c);
            String state = show(s, "SELECT concat_ws(',', coalesce(@leak, 'null'), @@sql_select_limit < 1000,"
                    + " @@max_recursive_iterations, @@tx_read_only, @@max_statement_time, @@autocommit)");
            System.out.println("MariaDB session after reset: @leak, sql_select_limit changed, max_recursive_iterations,"
                    + " tx_read_only, max_statement_time, autocommit = " + state);
            assertThat(state).isEqualTo("null,0,100000,ON,0.000000,OFF");
            c.rollback();
        }
    }

    @Test
    void anIdlePostgresConnectionIsReadOnly() throws Exception {
        assertThat(sql.execute("pg_one", "SELECT count(*) FROM singer").ok()).isTrue();
        DatabaseDeclaration d = registry.declaration("pg_one").orElseThrow();
        try (Connection idle = pools.connection(d); Statement s = idle.createStatement()) {
            idle.setAutoCommit(true);
            String characteristics = show(s, "SHOW default_transaction_read_only");
            String now = show(s, "SHOW transaction_read_only");
            System.out.println("idle PostgreSQL connection: default_transaction_read_only=" + characteristics
                    + ", transaction_read_only=" + now);
            assertThat(characteristics).isEqualTo("on");
            assertThat(now).isEqualTo("on");
        }
    }

    @Test
    void aMissingSqliteFileIsNeverCreated() throws Exception {
        Path root = Files.createTempDirectory("flowsql-missing");
        Files.createDirectories(root.resolve("wta_1"));
        io.flowsql.sql.catalog.DatabaseLocator locator = new io.flowsql.sql.catalog.DatabaseLocator(List.of(root), List.of());
        Path file = root.resolve("wta_1").resolve("wta_1.sqlite");
        try (SqliteSafeExecutor sqlite = new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults())) {
            ExecutionResult r = sqlite.execute("wta_1", "SELECT 1");
            System.out.println("missing SQLite file: " + (r.ok() ? "RAN" : r.error().kind() + " " + r.error().message()));
            assertThat(r.ok()).isFalse();
        }
        assertThatThrownByOpen(file);
        try (var files = Files.walk(root)) {
            assertThat(files.filter(Files::isRegularFile).toList()).as("files created by a read-only open").isEmpty();
        }
    }

    private static void assertThatThrownByOpen(Path file) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.flowsql.sql.engine.sqlite.ReadOnlyConnections.open(file).close())
                .isInstanceOf(java.sql.SQLException.class).hasMessageContaining("no SQLite database file");
    }

    private static double firstRandomAfterSeed(String db) throws Exception {
        DatabaseDeclaration d = registry.declaration(db).orElseThrow();
        try (Connection c = pools.connection(d); Statement s = c.createStatement()) {
            s.execute("SELECT setseed(0.25)");
            try (ResultSet rs = s.executeQuery("SELECT random()")) {
                rs.next();
                double value = rs.getDouble(1);
                c.rollback();
                d.engine().profile().resetSession(c);
                return value;
            }
        }
    }

    private static String show(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static long usedHeapMb() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    }

    private static String peakRss() throws Exception {
        return peakRss(Path.of("/proc/self/status"));
    }

    /** A process's peak resident memory ({@code VmHWM}) from its {@code /proc/<pid>/status}. */
    private static String peakRss(Path status) throws Exception {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmHWM:")) {
                return line.substring(6).trim();
            }
        }
        return "?";
    }
}

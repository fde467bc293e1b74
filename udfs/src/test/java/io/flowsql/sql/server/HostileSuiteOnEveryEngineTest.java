package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.RoutingSafeExecutor;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One table of hostile cases (statement, engines, expected outcome) run on SQLite, PostgreSQL, DuckDB and a real
 * MariaDB ({@link MariaDbServer}; its cases skipped when {@code mariadbd} is not installed, unless required): each is
 * refused, or stopped by a bound, with its time printed; before and after, PostgreSQL's and MariaDB's row counts, the
 * SHA-256 of the SQLite and DuckDB files and the list of files under every folder the engines could write to (MariaDB's
 * {@code secure_file_priv} folder included) are compared.
 */
class HostileSuiteOnEveryEngineTest {

    enum Outcome { REFUSED, STOPPED }

    record Case(String statement, String engines, Outcome expected) {}

    /** {@code OUT} stands for a path outside the data; engines: s = SQLite, p = PostgreSQL, d = DuckDB, m = MariaDB. */
    private static final List<Case> CASES = List.of(
            new Case("SELECT * FROM singer; DELETE FROM singer", "spdm", Outcome.REFUSED),
            new Case("WITH d AS (DELETE FROM singer RETURNING *) SELECT * FROM d", "spdm", Outcome.REFUSED),
            new Case("WITH d AS (DELETE FROM singer) SELECT 1", "spdm", Outcome.REFUSED),
            new Case("SELECT * INTO stolen FROM singer", "spdm", Outcome.REFUSED),
            new Case("SELECT * FROM singer FOR UPDATE", "pdm", Outcome.REFUSED),
            new Case("SELECT * FROM singer FOR NO KEY UPDATE", "pd", Outcome.REFUSED),
            new Case("SELECT E'\\'' ; DELETE FROM singer; --'", "pd", Outcome.REFUSED),
            new Case("SELECT e'x' AS a", "pd", Outcome.REFUSED),
            new Case("SELECT U&'\\0041' AS a", "pd", Outcome.REFUSED),
            new Case("SELECT $$;$$; DELETE FROM singer", "pd", Outcome.REFUSED),
            new Case("SELECT $q$ x $q$ AS a", "pd", Outcome.REFUSED),
            new Case("SELECT 1 /* /* */ ; DELETE FROM singer; /* */ */", "spdm", Outcome.REFUSED),
            new Case("SELECT 1 -- ; DELETE FROM singer", "spdm", Outcome.REFUSED),
            new Case("SET statement_timeout = 0", "pd", Outcome.REFUSED),
            new Case("COPY singer TO 'OUT/copy.csv'", "pd", Outcome.REFUSED),
            new Case("COPY (SELECT 1) TO PROGRAM 'touch OUT/program'", "p", Outcome.REFUSED),
            new Case("SELECT pg_catalog.pg_sleep(30)", "p", Outcome.REFUSED),
            new Case("SELECT \"pg_read_file\"('/etc/passwd')", "p", Outcome.REFUSED),
            new Case("SELECT lo_export(1, 'OUT/lo')", "p", Outcome.REFUSED),
            new Case("SELECT * FROM /**/ 'OUT/secret.csv'", "d", Outcome.REFUSED),
            new Case("SELECT * FROM singer, 'OUT/secret.csv'", "d", Outcome.REFUSED),
            new Case("SELECT * FROM (('OUT/secret.csv'))", "d", Outcome.REFUSED),
            new Case("SELECT * FROM \"OUT/secret.csv\"", "d", Outcome.REFUSED),
            new Case("SELECT * FROM read_csv_auto('OUT/secret.csv')", "d", Outcome.REFUSED),
            new Case("SELECT * FROM query('SELECT * FROM singer')", "d", Outcome.REFUSED),
            new Case("EXPORT DATABASE 'OUT/export'", "d", Outcome.REFUSED),
            new Case("ATTACH 'OUT/evil.db' AS evil", "spdm", Outcome.REFUSED),
            new Case("PRAGMA writable_schema = 1", "s", Outcome.REFUSED),
            new Case("SELECT load_extension('OUT/evil')", "s", Outcome.REFUSED),
            new Case("SELECT writefile('OUT/w', 'x')", "s", Outcome.REFUSED),
            new Case("SELECT count(*) FROM (SELECT unnest(range(100000000)))", "d", Outcome.REFUSED),
            new Case("SELECT length(repeat('x', 500000000))", "pdm", Outcome.REFUSED),
            new Case("SELECT list(range) FROM range(50000000)", "d", Outcome.STOPPED),
            new Case("SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 3", "d", Outcome.STOPPED),
            new Case("SELECT count(*) FROM generate_series(1, 10000000000)", "p", Outcome.STOPPED),
            new Case("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r", "spd",
                    Outcome.STOPPED),
            new Case("SELECT * FROM singer INTO outfile 'OUT/m.csv'", "m", Outcome.REFUSED),
            new Case("SELECT * INTO DUMPFILE 'OUT/d' FROM singer", "m", Outcome.REFUSED),
            new Case("SELECT LOAD_FILE('OUT/secret.csv')", "m", Outcome.REFUSED),
            new Case("SELECT `load_file`('OUT/secret.csv')", "m", Outcome.REFUSED),
            new Case("SELECT 1 --1, load_file('OUT/secret.csv')", "m", Outcome.REFUSED),
            new Case("SELECT 1 /*! , load_file('OUT/secret.csv') */", "m", Outcome.REFUSED),
            new Case("SELECT 1 /*M!100000 , sleep(30) */", "m", Outcome.REFUSED),
            new Case("SELECT 1 # ; DELETE FROM singer", "m", Outcome.REFUSED),
            new Case("LOAD DATA INFILE 'OUT/secret.csv' INTO TABLE singer", "m", Outcome.REFUSED),
            new Case("LOAD XML INFILE 'OUT/secret.csv' INTO TABLE singer", "m", Outcome.REFUSED),
            new Case("SELECT SLEEP(30)", "m", Outcome.REFUSED),
            new Case("SELECT BENCHMARK(1000000000, md5('x'))", "m", Outcome.REFUSED),
            new Case("SELECT GET_LOCK('x', 10)", "m", Outcome.REFUSED),
            new Case("SELECT sys_exec('touch OUT/pwn')", "m", Outcome.REFUSED),
            new Case("SELECT LAST_INSERT_ID(5)", "m", Outcome.REFUSED),
            new Case("SET @@session.max_statement_time = 0", "m", Outcome.REFUSED),
            new Case("SET STATEMENT max_statement_time = 0 FOR SELECT 1", "m", Outcome.REFUSED),
            new Case("SELECT @@version", "m", Outcome.REFUSED),
            new Case("SELECT @n := count(*) FROM singer", "m", Outcome.REFUSED),
            new Case("HANDLER singer OPEN", "m", Outcome.REFUSED),
            new Case("SELECT * FROM singer LOCK IN SHARE MODE", "m", Outcome.REFUSED),
            new Case("SELECT 'a\\' ; DELETE FROM singer; -- '", "m", Outcome.REFUSED),
            new Case("SELECT \"a\\\" ; DELETE FROM singer; -- \"", "m", Outcome.REFUSED),
            new Case("KILL QUERY 1", "m", Outcome.REFUSED),
            new Case("SHUTDOWN", "m", Outcome.REFUSED),
            new Case("SELECT sum(crc32(seq)) FROM seq_1_to_900000000", "m", Outcome.STOPPED),
            new Case("SELECT count(*) FROM seq_1_to_30000 a, seq_1_to_30000 b WHERE (a.seq ^ b.seq) % 7 = 3", "m",
                    Outcome.STOPPED),
            new Case("SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h,"
                    + " singer i, singer j, singer k, singer l", "m", Outcome.STOPPED));

    private static final long BUDGET_MILLIS = 4_000;

    @Test
    void everyCaseIsRefusedOrStoppedAndNothingChanges() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        Path out = Files.createTempDirectory("flowsql-hostile-suite-out");
        Files.writeString(out.resolve("secret.csv"), "a\nsecret\n");
        Path sqliteRoot = Files.createTempDirectory("flowsql-hostile-suite-sqlite");
        DatabaseLocator locator = SpiderData.copyOf("concert_singer", sqliteRoot);
        Path sqliteFile = sqliteRoot.resolve("concert_singer").resolve("concert_singer.sqlite");
        Path duckFile = servers.duckDir.resolve("concert_singer.duckdb");
        MariaDbServer maria = MariaDbServer.startIfInstalled(List.of("concert_singer"));
        List<io.flowsql.sql.registry.DatabaseDeclaration> declared = new ArrayList<>(servers.registry().declared());
        if (maria != null) {
            declared.add(maria.declaration("maria_concert_singer", "concert_singer", 2));
        }
        DatabaseRegistry registry = new DatabaseRegistry(SpiderData.locator(), declared);
        Map<String, Long> mariaBefore = maria == null ? Map.of() : maria.rowCounts("concert_singer");
        Path mariaFiles = maria == null ? out : maria.dir.resolve("nofiles");
        SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(BUDGET_MILLIS).withMaxBytes(1L << 20);
        Map<String, Long> rowsBefore = HostileServerSqlTest.pgRowCounts(servers);
        String sqliteBefore = HostileServerSqlTest.sha256(sqliteFile);
        String duckBefore = HostileServerSqlTest.sha256(duckFile);
        List<String> filesBefore = files(out, sqliteRoot, servers.duckDir, mariaFiles);
        List<String> wrong = new ArrayList<>();
        try (SafeExecutor sql = new RoutingSafeExecutor(registry, new SqliteSafeExecutor(locator, config),
                new JdbcSafeExecutor(registry, config, new JdbcPools(new Credentials(Map.of()), 5_000)))) {
            for (Case c : CASES) {
                String statement = c.statement().replace("OUT", out.toString());
                for (char engine : c.engines().toCharArray()) {
                    if (engine == 'm' && maria == null) {
                        continue;
                    }
                    String db = switch (engine) {
                        case 's' -> "concert_singer";
                        case 'p' -> "pg_concert_singer";
                        case 'm' -> "maria_concert_singer";
                        default -> "duck_concert_singer";
                    };
                    long start = System.nanoTime();
                    ExecutionResult r = sql.execute(db, statement, sql.newBudget());
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    // refused = never ran: by the guard, or (SQLite, no data-modifying CTE or SELECT INTO in its grammar)
                    // by the engine's own syntax check before anything executes
                    boolean neverRan = !r.ok() && (r.error().kind() == SqlError.Kind.REFUSED
                            || r.error().kind() == SqlError.Kind.INVALID_SQL && db.equals("concert_singer"));
                    Outcome got = r.ok() ? null : neverRan ? Outcome.REFUSED : Outcome.STOPPED;
                    System.out.printf("%-20s expected %-7s got %-8s %5d ms  %s -> %s%n", db, c.expected(),
                            r.ok() ? "RAN" : r.error().kind(), ms, statement.replace('\n', ' '),
                            r.ok() ? r.rows().size() + " rows" : r.error().message());
                    boolean stoppedInTime = ms <= BUDGET_MILLIS * 12 / 10;
                    if (c.expected() == Outcome.REFUSED ? got != Outcome.REFUSED : r.ok() && !r.truncated() || !stoppedInTime) {
                        wrong.add(db + ": " + statement + " -> " + (r.ok() ? "ran" : r.error().kind()) + " in " + ms + " ms");
                    }
                }
            }
        }
        assertThat(wrong).as("cases with another outcome than expected").isEmpty();
        assertThat(HostileServerSqlTest.pgRowCounts(servers)).as("PostgreSQL row counts").isEqualTo(rowsBefore);
        assertThat(HostileServerSqlTest.sha256(sqliteFile)).as("SQLite file").isEqualTo(sqliteBefore);
        assertThat(HostileServerSqlTest.sha256(duckFile)).as("DuckDB file").isEqualTo(duckBefore);
        assertThat(files(out, sqliteRoot, servers.duckDir, mariaFiles)).as("files created").isEqualTo(filesBefore);
        if (maria != null) {
            assertThat(maria.rowCounts("concert_singer")).as("MariaDB row counts").isEqualTo(mariaBefore);
            maria.close();
        }
        System.out.println(CASES.size() + " cases; rows, checksums and files unchanged; files watched: " + filesBefore.size());
    }

    private static List<String> files(Path... roots) throws Exception {
        List<String> all = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().endsWith(".wal"))
                        .map(Path::toString).forEach(all::add);
            }
        }
        return all.stream().sorted().toList();
    }
}

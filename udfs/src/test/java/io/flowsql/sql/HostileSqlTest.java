package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Adversarial SQL against a copy of a real Spider database: every statement is refused or stopped with
 * its reason, the database folder is byte-identical afterwards and no thread is left behind.
 */
class HostileSqlTest {

    private static final Set<SqlError.Kind> REFUSED = EnumSet.of(SqlError.Kind.REFUSED);
    private static final Set<SqlError.Kind> STOPPED = EnumSet.of(SqlError.Kind.TIMEOUT);
    private static final Set<SqlError.Kind> BOMB = EnumSet.of(SqlError.Kind.RUNTIME, SqlError.Kind.TIMEOUT);

    private static Map<String, Set<SqlError.Kind>> hostile(Path outside) {
        String evil = outside.resolve("evil.db").toString();
        Map<String, Set<SqlError.Kind>> s = new LinkedHashMap<>();
        for (String sql : List.of(
                "DROP TABLE singer", "DROP TABLE IF EXISTS singer", "dRoP TaBlE singer", "DROP/**/TABLE singer",
                "UPDATE singer SET Age = 0", "INSERT INTO singer (Name) VALUES ('x')", "DELETE FROM singer",
                "CREATE TABLE evil (x)", "CREATE TEMP TABLE evil (x)", "CREATE INDEX i ON singer(Name)",
                "CREATE VIEW v AS SELECT 1", "CREATE TRIGGER t AFTER INSERT ON singer BEGIN DELETE FROM singer; END",
                "CREATE VIRTUAL TABLE v USING fts5(x)", "ALTER TABLE singer ADD COLUMN evil TEXT",
                "ALTER TABLE singer RENAME TO s2", "ATTACH DATABASE '" + evil + "' AS evil", "ATTACH 'file::memory:' AS m",
                "DETACH DATABASE main", "PRAGMA writable_schema = 1", "PRAGMA journal_mode = WAL", "PRAGMA query_only = 0",
                "PRAGMA user_version = 5", "SELECT load_extension('/tmp/evil.so')",
                "SELECT load_extension('libc.so.6', 'system')", "VACUUM", "VACUUM INTO '" + outside.resolve("stolen.db") + "'",
                "REPLACE INTO singer (Singer_ID, Name) VALUES (1, 'x')", "INSERT OR REPLACE INTO singer (Singer_ID) VALUES (1)",
                "SELECT 1; DROP TABLE singer", "SELECT * FROM singer; DELETE FROM singer;", "SELECT 1;SELECT 2",
                "SELECT 1 /* */; DROP TABLE singer", "/* harmless */ DROP TABLE singer", "-- note\nDELETE FROM singer",
                "SELECT 1 -- ; DROP TABLE singer", "SELECT 1 /* ; DELETE FROM singer */",
                "SELECT Name FROM singer /*! DROP TABLE singer */", "WITH x AS (SELECT 1) DELETE FROM singer",
                "WITH x AS (SELECT 1) INSERT INTO singer (Name) SELECT * FROM x",
                "WITH x AS (SELECT 1) UPDATE singer SET Name = 'x'", "BEGIN; DELETE FROM singer; COMMIT", "BEGIN IMMEDIATE",
                "SAVEPOINT a", "REINDEX", "ANALYZE", "SELECT writefile('" + outside.resolve("w.txt") + "', 'y')",
                "SELECT readfile('/etc/passwd')", "SELECT fts3_tokenizer('simple')", "SELECT edit('x')", "",
                "   -- only a comment", "SELECT * FROM sqlite_master; UPDATE sqlite_master SET sql = ''",
                "INSERT INTO sqlite_master VALUES (1, 2, 3, 4, 5)", "SELECT 1 UNION ALL SELECT 2; PRAGMA writable_schema=ON",
                "EXPLAIN DELETE FROM singer", "; DROP TABLE singer",
                "SELECT * FROM singer WHERE Name = 'x'; -- trailing\nATTACH 'a' AS b",
                "SELECT * FROM singer WHERE Name GLOB 'x'; DELETE FROM singer",
                "WITH x AS (SELECT 1) DELETE FROM singer WHERE Name GLOB 'x' AND Age == 1")) {
            s.put(sql, REFUSED);
        }
        s.put("SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h, singer i, singer j, singer k, singer l", STOPPED);
        s.put("SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h, singer i, singer j, singer k, singer l "
                + "WHERE a.Name GLOB '*' AND b.Age == b.Age", STOPPED);
        s.put("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r", STOPPED);
        s.put("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x FROM r) SELECT x FROM r ORDER BY x", STOPPED);
        s.put("SELECT randomblob(1000000000)", BOMB);
        s.put("SELECT zeroblob(2000000000)", BOMB);
        s.put("SELECT length(randomblob(100000000))", BOMB);
        s.put("SELECT replace(hex(zeroblob(100000000)), '00', 'ab')", BOMB);
        s.put("SELECT printf('%.*c', 2000000000, 'x')", BOMB);
        s.put("WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r) SELECT length(s) FROM r", BOMB);
        return s;
    }

    @Test
    void everyHostileStatementIsRefusedOrStoppedAndNothingChanges() throws Exception {
        Path root = Paths.get("target", "hostile-sql").toAbsolutePath();
        Path outside = root.resolve("outside");
        Files.createDirectories(outside);
        DatabaseLocator locator = SpiderData.copyOf("concert_singer", root.resolve("databases"));
        Map<String, String> before = hashes(root.resolve("databases"));
        Map<String, Set<SqlError.Kind>> statements = hostile(outside);
        assertThat(statements).hasSizeGreaterThanOrEqualTo(50);
        // the guard's first parse loads the lexer and parser classes: on a loaded machine that alone outlasts the
        // 500 ms budget below, so it is done once under the default budget first
        try (SqliteSafeExecutor warm = new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults())) {
            assertThat(warm.execute("concert_singer", "SELECT count(*) FROM singer").error()).isNull();
        }
        long threadsBefore = threadsBesideTheParsePool();
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(locator,
                SqlExecutorConfig.defaults().withTimeoutMillis(500).withMaxBytes(1 << 20))) {
            assertThat(executor.execute("concert_singer", "SELECT count(*) FROM singer").rows().get(0).get(0)).isEqualTo(6L);
            for (Map.Entry<String, Set<SqlError.Kind>> statement : statements.entrySet()) {
                long start = System.nanoTime();
                ExecutionResult result = executor.execute("concert_singer", statement.getKey());
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertThat(result.error()).as(statement.getKey()).isNotNull();
                assertThat(result.error().kind()).as(statement.getKey() + " -> " + result.error()).isIn(statement.getValue());
                assertThat(result.error().message()).isNotBlank();
                // 500 ms limit; a starved machine stops it late (670 ms seen at a load average of 25), while the
                // statements it stops would run for hours
                assertThat(ms).as(statement.getKey()).isLessThan(1_500);
                System.out.printf("%-9s %5d ms  %-70.70s  %s%n", result.error().kind(), ms,
                        statement.getKey().replace('\n', ' '), result.error().message());
            }
            assertThat(executor.execute("concert_singer", "SELECT count(*) FROM singer").rows().get(0).get(0)).isEqualTo(6L);
        }
        assertThat(hashes(root.resolve("databases"))).isEqualTo(before);
        try (Stream<Path> left = Files.list(outside)) {
            assertThat(left).as("nothing written outside").isEmpty();
        }
        // the guard's shared parse pool may grow by a thread while a timed-out parse is abandoned (it is bounded);
        // nothing else may be left behind
        assertThat(threadsBesideTheParsePool()).isLessThanOrEqualTo(threadsBefore);
    }

    /** Every file under the folder (including any journal SQLite might leave) with its SHA-256. */
    private static Map<String, String> hashes(Path folder) throws IOException, NoSuchAlgorithmException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.put(folder.relativize(file).toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
            }
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    private static long threadsBesideTheParsePool() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> !t.getName().startsWith("flowsql-sql-parse-")).count();
    }
}

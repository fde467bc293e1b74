package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The safe executor on real Spider databases: SQLite syntax that must pass, limits that must hold. */
class SqliteSafeExecutorTest {

    private static final long TIMEOUT_MS = 1_000;
    private static SqliteSafeExecutor executor;

    @BeforeAll
    static void open() {
        executor = new SqliteSafeExecutor(SpiderData.locator(),
                SqlExecutorConfig.defaults().withTimeoutMillis(TIMEOUT_MS).withMaxRows(500).withPoolSizePerDatabase(2));
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT `Home Town` FROM perpetrator_people_view_alias",
        "SELECT count(*) FROM singer WHERE Country = 'France'",
        "SELECT CAST(Age AS REAL) / 3 FROM singer",
        "SELECT IIF(Age > 30, 'old', 'young') FROM singer",
        "SELECT strftime('%Y', '2014-05-01'), julianday('2014-05-02') - julianday('2014-05-01')",
        "SELECT Name FROM singer ORDER BY Age LIMIT 2 OFFSET 1",
        "SELECT Name FROM singer ORDER BY Age LIMIT 1, 2",
        "SELECT Name FROM singer UNION SELECT Name FROM stadium",
        "SELECT Country FROM singer INTERSECT SELECT Country FROM singer WHERE Age > 30",
        "SELECT Country FROM singer EXCEPT SELECT Country FROM singer WHERE Age > 40",
        "SELECT Name FROM singer WHERE Name GLOB 'J*'",
        "SELECT Name FROM singer WHERE Age == 52",
        "SELECT Name FROM singer WHERE Country IS NOT NULL",
        "SELECT Name FROM singer WHERE Song_Name IS 'Love'",
        "SELECT [Name] FROM [singer] WHERE [Age] > 20",
        "WITH old AS (SELECT * FROM singer WHERE Age > 40) SELECT Name FROM old",
        "SELECT Name, rank() OVER (PARTITION BY Country ORDER BY Age) FROM singer",
        "SELECT Name || ' from ' || Country FROM singer WHERE Name LIKE '%e%' COLLATE NOCASE",
        "select name from singer;  ",
    })
    void acceptsSqliteSyntax(String sql) {
        String db = sql.contains("Home Town") ? "perpetrator" : "concert_singer";
        String query = sql.replace("perpetrator_people_view_alias", "people");
        ExecutionResult result = executor.execute(db, query);
        assertThat(result.error()).as(query).isNull();
        assertThat(result.columns()).isNotEmpty();
    }

    @Test
    void returnsTypedValuesAndRowCount() {
        ExecutionResult result = executor.execute("concert_singer",
                "SELECT Name, Age, CAST(Age AS REAL) / 2 FROM singer WHERE Singer_ID = 1");
        assertThat(result.ok()).isTrue();
        assertThat(result.columns()).hasSize(3);
        assertThat(result.rowCount()).isEqualTo(1);
        assertThat(result.rows().get(0).get(0)).isInstanceOf(String.class);
        assertThat(result.rows().get(0).get(1)).isInstanceOf(Long.class);
        assertThat(result.rows().get(0).get(2)).isInstanceOf(Double.class);
        assertThat(result.truncated()).isFalse();
    }

    @Test
    void invalidSqlAndUnknownDatabaseAreTyped() {
        assertThat(executor.execute("concert_singer", "SELECT nope FROM singer").error().kind())
                .isEqualTo(SqlError.Kind.INVALID_SQL);
        assertThat(executor.execute("concert_singer", "SELECT Name FROM singer WHERE Name GLOB").error().kind())
                .isEqualTo(SqlError.Kind.INVALID_SQL);
        assertThat(executor.execute("no_such_db", "SELECT 1").error().kind()).isEqualTo(SqlError.Kind.UNKNOWN_DATABASE);
        assertThat(executor.execute("../concert_singer", "SELECT 1").error().kind()).isEqualTo(SqlError.Kind.UNKNOWN_DATABASE);
    }

    @Test
    void capsRowsAndBytes() {
        ExecutionResult rows = executor.execute("flight_4", "SELECT * FROM routes");
        assertThat(rows.ok()).isTrue();
        assertThat(rows.rows()).hasSize(500);
        assertThat(rows.truncated()).isTrue();
        try (SqliteSafeExecutor small = new SqliteSafeExecutor(SpiderData.locator(),
                SqlExecutorConfig.defaults().withMaxBytes(1_000))) {
            ExecutionResult bytes = small.execute("flight_4", "SELECT * FROM routes");
            assertThat(bytes.truncated()).isTrue();
            assertThat(bytes.rows().size()).isBetween(1, 100);
        }
        ExecutionResult all = executor.execute("concert_singer", "SELECT * FROM singer");
        assertThat(all.truncated()).isFalse();
        assertThat(all.rowCount()).isEqualTo(6);
    }

    @Test
    void crossJoinStopsWithinTheLimitAndTheConnectionIsReusable() {
        executor.execute("flight_4", "SELECT 1");
        int threadsBefore = Thread.activeCount();
        long start = System.nanoTime();
        ExecutionResult result = executor.execute("flight_4",
                "SELECT count(*) FROM routes a, routes b, routes c WHERE a.rid + b.rid + c.rid = -1");
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(result.error().kind()).isEqualTo(SqlError.Kind.TIMEOUT);
        assertThat(elapsedMs).isGreaterThanOrEqualTo(TIMEOUT_MS - 50).isLessThan((long) (TIMEOUT_MS * 1.2));
        assertThat(executor.execute("flight_4", "SELECT count(*) FROM airlines").ok()).isTrue();
        start = System.nanoTime();
        ExecutionResult endless = executor.execute("flight_4",
                "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n");
        assertThat(endless.error().kind()).isEqualTo(SqlError.Kind.TIMEOUT);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan((long) (TIMEOUT_MS * 1.2));
        assertThat(executor.execute("flight_4", "SELECT count(*) FROM routes").rows().get(0).get(0)).isEqualTo(67240L);
        assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore);
    }

    @Test
    void boundsConcurrentQueriesPerDatabase() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try (SqliteSafeExecutor twoAtATime = new SqliteSafeExecutor(SpiderData.locator(),
                SqlExecutorConfig.defaults().withTimeoutMillis(400).withPoolSizePerDatabase(2))) {
            long start = System.nanoTime();
            List<Future<ExecutionResult>> futures = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                futures.add(callers.submit(() -> twoAtATime.execute("flight_4",
                        "SELECT count(*) FROM routes a, routes b WHERE a.rid + b.rid = -1")));
            }
            for (Future<ExecutionResult> f : futures) {
                ExecutionResult r = f.get(10, TimeUnit.SECONDS);
                assertThat(r.error().kind()).isEqualTo(SqlError.Kind.TIMEOUT);
                assertThat(r.error().message()).contains("time limit");
            }
            // four queries of 400 ms on two connections need two waves (one wave would take ~400 ms); the statement
            // budget also covers the guard's parse, so each wave's execution ends a little before its 400 ms
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(700);
        } finally {
            callers.shutdownNow();
        }
    }
}

package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.server.JdbcSchemaCatalog;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.SpiderData;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JDBC executor and live catalog on a real PostgreSQL and real DuckDB files holding Spider databases. */
class JdbcSafeExecutorTest {

    static ServerDatabases servers;
    static DatabaseRegistry registry;
    static JdbcSafeExecutor jdbc;
    static SqliteSafeExecutor sqlite;
    static JdbcSchemaCatalog catalog;

    @BeforeAll
    static void start() {
        servers = ServerDatabases.get();
        registry = servers.registry();
        JdbcPools pools = new JdbcPools(new Credentials(Map.of()), 3_000);
        jdbc = new JdbcSafeExecutor(registry, SqlExecutorConfig.defaults().withTimeoutMillis(2_000), pools);
        sqlite = new SqliteSafeExecutor(SpiderData.locator(), SqlExecutorConfig.defaults());
        catalog = new JdbcSchemaCatalog(registry, pools, ValueExamplePolicy.defaults());
    }

    @AfterAll
    static void stop() {
        catalog.close();
        jdbc.close();
        sqlite.close();
    }

    @Test
    void goldQueriesGiveTheSqliteResultOnBothEngines() {
        ResultComparator same = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        for (String sql : List.of("SELECT count(*) FROM singer", "SELECT name, country, age FROM singer ORDER BY age DESC",
                "SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'",
                "SELECT T2.concert_name, count(*) FROM singer_in_concert AS T1 JOIN concert AS T2 ON T1.concert_id = T2.concert_id GROUP BY T2.concert_name",
                "SELECT name, song_name FROM singer WHERE age > (SELECT avg(age) FROM singer)")) {
            ExecutionResult gold = sqlite.execute("concert_singer", sql);
            assertThat(gold.ok()).as(sql).isTrue();
            for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
                ExecutionResult r = jdbc.execute(db, sql);
                assertThat(r.error()).as(db + ": " + sql).isNull();
                assertThat(same.equal(gold, sql, r)).as(db + ": " + sql + " " + r.rows() + " vs " + gold.rows()).isTrue();
            }
        }
    }

    @Test
    void catalogShowsTablesKeysAndExamples() {
        for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
            DatabaseSchema schema = catalog.schema(db);
            assertThat(schema.tables()).extracting(t -> t.name().toLowerCase()).containsExactlyInAnyOrder(
                    "stadium", "singer", "concert", "singer_in_concert");
            assertThat(schema.table("singer").orElseThrow().primaryKey()).extracting(String::toLowerCase).containsExactly("singer_id");
            assertThat(schema.table("singer").orElseThrow().columns().stream()
                    .filter(c -> c.name().equalsIgnoreCase("country")).findFirst().orElseThrow().valueExamples()).isNotEmpty();
            if (db.startsWith("pg_")) {
                assertThat(schema.foreignKeys()).as(db).isNotEmpty();
            }
        }
    }

    @Test
    void refreshSwapsInANewCatalogWhole() throws Exception {
        String db = "pg_pets_1";
        DatabaseSchema before = catalog.schema(db);
        try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE pets_1.vet (vet_id BIGINT PRIMARY KEY, name TEXT)");
            s.execute("COMMENT ON TABLE pets_1.vet IS 'veterinarians'");
            s.execute("COMMENT ON COLUMN pets_1.vet.name IS 'the vet''s full name'");
            s.execute("GRANT SELECT ON pets_1.vet TO " + ServerDatabases.READER);
        }
        try {
            assertThat(catalog.schema(db)).isSameAs(before);
            DatabaseSchema after = catalog.refresh(db);
            assertThat(catalog.schema(db)).isSameAs(after);
            assertThat(after.table("vet").orElseThrow().description()).isEqualTo("veterinarians");
            assertThat(after.table("vet").orElseThrow().columns().get(1).description()).isEqualTo("the vet's full name");
            assertThat(before.table("vet")).isEmpty();
        } finally {
            try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
                s.execute("DROP TABLE pets_1.vet");
            }
            catalog.refresh(db);
        }
    }

    @Test
    void capsTimeoutsAndCancellation() throws Exception {
        for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
            ExecutionResult many = jdbc.execute(db, "SELECT a.name, b.name FROM singer a, singer b, singer c, singer d, singer e");
            assertThat(many.ok()).isTrue();
            assertThat(many.truncated()).isFalse();
            JdbcSafeExecutor small = jdbc;
            ExecutionResult endless = small.execute(db, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                    + "SELECT count(*) FROM r");
            assertThat(endless.error()).as(db).isNotNull();
            assertThat(endless.error().kind()).as(db + " " + endless.error()).isEqualTo(SqlError.Kind.TIMEOUT);
            assertThat(endless.elapsedMicros()).as(db).isLessThan(2_000_000L * 3);
            StatementBudget budget = StatementBudget.startingNow(60_000);
            CompletableFuture<ExecutionResult> running = CompletableFuture.supplyAsync(() -> jdbc.execute(db,
                    // a long count on both engines (DuckDB counts a 6^10-row cross join in well under the 300 ms below)
                    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 2000000000) SELECT count(*) FROM r",
                    budget));
            Thread.sleep(300);
            long cancelAt = System.nanoTime();
            budget.cancel();
            ExecutionResult cancelled = running.get(10, TimeUnit.SECONDS);
            assertThat(cancelled.error()).as(db).isNotNull();
            assertThat(cancelled.error().kind()).isEqualTo(SqlError.Kind.TIMEOUT);
            assertThat((System.nanoTime() - cancelAt) / 1_000_000).as(db + " ms from cancel to answer").isLessThan(3_000);
            assertThat(jdbc.execute(db, "SELECT count(*) FROM singer").ok()).as(db + " connection reusable").isTrue();
        }
    }

    @Test
    void rowCapTruncates() {
        JdbcSafeExecutor capped = new JdbcSafeExecutor(registry, SqlExecutorConfig.defaults().withMaxRows(5),
                new JdbcPools(new Credentials(Map.of()), 3_000));
        try {
            for (String db : List.of("pg_car_1", "duck_car_1")) {
                ExecutionResult r = capped.execute(db, "SELECT * FROM cars_data");
                assertThat(r.ok()).isTrue();
                assertThat(r.rows()).hasSize(5);
                assertThat(r.truncated()).isTrue();
            }
        } finally {
            capped.close();
        }
    }

    @Test
    void unknownDatabaseAndInvalidSql() {
        assertThat(jdbc.execute("nope", "SELECT 1").error().kind()).isEqualTo(SqlError.Kind.UNKNOWN_DATABASE);
        for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
            ExecutionResult r = jdbc.execute(db, "SELECT no_such_column FROM singer");
            assertThat(r.error().kind()).as(db + " " + r.error()).isIn(SqlError.Kind.INVALID_SQL, SqlError.Kind.RUNTIME);
        }
    }
}

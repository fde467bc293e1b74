package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.engine.SqlParsing;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.compare.ResultFingerprint;
import io.flowsql.sql.exec.EngineStatementGuard;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SafeExecutor;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Results of the same query on SQLite, a real PostgreSQL and a real DuckDB compare as the same answer: numerics of
 * every width, reals, booleans, dates and timestamps read as SQLite returns them, and a sorted result whose NULL rows
 * the engines put at opposite ends; and each engine's SQL is parsed in its own dialect.
 */
class CrossEngineResultsTest {
    static DatabaseParts parts;
    static SafeExecutor sql;

    @BeforeAll
    static void start() {
        parts = DatabaseParts.build(ServerDatabases.get().registry(), SqlExecutorConfig.defaults().withTimeoutMillis(5_000), 8);
        sql = parts.sql();
    }

    @AfterAll
    static void stop() {
        sql.close();
    }

    @Test
    void typesOfEveryEngineFingerprintAsSqlitesValues() {
        // SQLite has no date, numeric or boolean type: it answers with text, integers and reals
        String sqlite = "SELECT '2024-01-02 03:04:05', '2024-01-02', '2024-01-02 03:04:05.25', 2.5, 1.1, 3, 1, 7";
        String server = "SELECT CAST('2024-01-02 03:04:05' AS TIMESTAMP), CAST('2024-01-02' AS DATE), "
                + "CAST('2024-01-02 03:04:05.25' AS TIMESTAMP), CAST(2.5 AS NUMERIC(10,4)), CAST(1.1 AS REAL), "
                + "CAST(3 AS SMALLINT), TRUE, CAST(7 AS BIGINT)";
        ExecutionResult gold = sql.execute("concert_singer", sqlite);
        assertThat(gold.ok()).isTrue();
        for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
            ExecutionResult r = sql.execute(db, server);
            assertThat(r.error()).as(db).isNull();
            assertThat(r.rows().get(0)).as(db).containsExactly("2024-01-02 03:04:05", "2024-01-02", "2024-01-02 03:04:05.25",
                    2.5, 1.1, 3L, 1L, 7L);
            assertThat(ResultFingerprint.of(r, ComparisonMode.SPIDER_TEST_SUITE))
                    .isEqualTo(ResultFingerprint.of(gold, ComparisonMode.SPIDER_TEST_SUITE));
        }
    }

    @Test
    void aSortedResultWithNullsMatchesAcrossEngines() {
        String query = "SELECT a FROM (SELECT 2 AS a UNION ALL SELECT NULL UNION ALL SELECT 1) AS t ORDER BY a";
        ResultComparator comparator = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        ExecutionResult gold = sql.execute("concert_singer", query);
        assertThat(gold.rows()).as("SQLite sorts NULL first").containsExactly(java.util.Arrays.asList((Object) null), List.of(1L), List.of(2L));
        for (String db : List.of("pg_concert_singer", "duck_concert_singer")) {
            ExecutionResult r = sql.execute(db, query);
            assertThat(r.rows()).as(db + " sorts NULL last").containsExactly(List.of(1L), List.of(2L), java.util.Arrays.asList((Object) null));
            assertThat(comparator.equal(gold, query, r)).as(db).isFalse();
            assertThat(comparator.equalAcrossEngines(gold, query, r)).as(db).isTrue();
        }
        ExecutionResult wrong = sql.execute("pg_concert_singer", "SELECT a FROM (SELECT 2 AS a UNION ALL SELECT NULL UNION ALL SELECT 1) AS t ORDER BY a DESC");
        assertThat(comparator.equalAcrossEngines(gold, query, wrong)).as("another order is still another answer").isFalse();
    }

    @Test
    void eachEnginesSqlIsParsedInItsDialect() {
        String subscript = "SELECT (ARRAY[Name, Country])[1] FROM singer";
        assertThat(SqlParsing.parse(subscript, DatabaseEngine.POSTGRESQL)).isPresent();
        assertThat(SqlParsing.parse("SELECT [Name] FROM singer", DatabaseEngine.SQLITE)).isPresent();
        EngineStatementGuard guard = new EngineStatementGuard();
        assertThat(guard.check(DatabaseEngine.POSTGRESQL, subscript, StatementBudget.startingNow(5_000)).accepted()).isTrue();
        assertThat(guard.check(DatabaseEngine.POSTGRESQL, "SELECT Name::text, Age::numeric / 2 FROM singer",
                StatementBudget.startingNow(5_000)).accepted()).isTrue();
        ExecutionResult r = sql.execute("pg_concert_singer", subscript + " ORDER BY Singer_ID LIMIT 1");
        assertThat(r.error()).isNull();
        assertThat(r.rows()).hasSize(1);
        ExecutionResult d = sql.execute("duck_concert_singer", "SELECT [Name, Country][1] FROM singer ORDER BY Singer_ID LIMIT 1");
        assertThat(d.error()).isNull();
        assertThat(d.rows()).isEqualTo(r.rows());
    }
}

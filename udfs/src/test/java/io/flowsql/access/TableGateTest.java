package io.flowsql.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.engine.DatabaseEngine;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The gate reads a statement as the engine does: scope by scope for {@code WITH} names, in the engine's dialect, with
 * per-engine function allow-lists. A tenant may read {@code singer} and {@code concert} only.
 */
class TableGateTest {
    private static final Predicate<String> ALLOWED = t -> Set.of("singer", "concert").contains(t.toLowerCase());

    private static Optional<String> gate(String sql, DatabaseEngine engine) {
        return TableGate.feedback(sql, ALLOWED, engine);
    }

    @Test
    void aWithNameHidesATableOnlyInsideTheQueryThatDeclaresIt() {
        for (DatabaseEngine engine : DatabaseEngine.values()) {
            assertThat(gate("SELECT * FROM (WITH stadium AS (SELECT 1) SELECT * FROM singer) a, stadium", engine))
                    .as(engine.name()).contains("table stadium is not available");
            assertThat(gate("SELECT name FROM singer WHERE EXISTS (WITH stadium AS (SELECT 1 AS x) SELECT x FROM stadium) "
                    + "UNION ALL SELECT name FROM stadium", engine)).as(engine.name()).contains("table stadium is not available");
            assertThat(gate("SELECT * FROM stadium s, (SELECT 1) stadium", engine)).as("an alias hides nothing")
                    .contains("table stadium is not available");
            assertThat(gate("WITH stadium AS (SELECT * FROM stadium) SELECT * FROM stadium", engine))
                    .as("a non-recursive WITH body reads the real table").contains("table stadium is not available");
            if (engine.profile().quoteName("x").startsWith("\"")) {
                assertThat(gate("WITH \"Stadium\" AS (SELECT 1) SELECT * FROM stadium", engine))
                        .as("a quoted WITH name hides only its exact spelling").contains("table stadium is not available");
            } else {
                // MariaDB: "Stadium" is a string, so this is no query at all
                assertThat(gate("WITH \"Stadium\" AS (SELECT 1) SELECT * FROM stadium", engine)).as(engine.name()).isPresent();
            }
            assertThat(gate("WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a", engine))
                    .as("a later WITH name is not visible in an earlier body").contains("table b is not available");
        }
    }

    @Test
    void controlsStillPass() {
        for (DatabaseEngine engine : DatabaseEngine.values()) {
            for (String sql : new String[] {
                    "WITH stadium AS (SELECT * FROM singer) SELECT * FROM stadium",
                    "WITH Stadium AS (SELECT * FROM singer) SELECT * FROM STADIUM",
                    "WITH s AS (SELECT * FROM singer), t AS (SELECT * FROM s) SELECT * FROM t",
                    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r",
                    "SELECT s.name, count(*) FROM singer s JOIN concert c ON s.singer_id = c.concert_id GROUP BY s.name",
                    "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer) ORDER BY upper(name) LIMIT 3",
                    "SELECT CAST(age AS REAL) FROM singer"}) {
                assertThat(gate(sql, engine)).as(engine + ": " + sql).isEmpty();
            }
        }
    }

    @Test
    void catalogRelationsAndFunctionsOffTheAllowListAreRefused() {
        assertThat(gate("SELECT * FROM sqlite_master", DatabaseEngine.SQLITE)).contains("table sqlite_master is not available");
        assertThat(gate("SELECT * FROM pragma_table_info('stadium')", DatabaseEngine.SQLITE)).isPresent();
        assertThat(gate("SELECT * FROM information_schema.tables", DatabaseEngine.POSTGRESQL)).isPresent();
        assertThat(gate("SELECT relname FROM pg_class", DatabaseEngine.POSTGRESQL)).isPresent();
        assertThat(gate("SELECT query_to_xml('SELECT * FROM stadium', true, true, '')", DatabaseEngine.POSTGRESQL))
                .contains("function query_to_xml is not available");
        assertThat(gate("SELECT table_to_xml_and_xmlschema('stadium', true, true, '')", DatabaseEngine.POSTGRESQL)).isPresent();
        assertThat(gate("SELECT to_regclass('stadium')", DatabaseEngine.POSTGRESQL)).isPresent();
        assertThat(gate("SELECT 'stadium'::regclass", DatabaseEngine.POSTGRESQL)).contains("cast to regclass is not available");
        assertThat(gate("SELECT * FROM duckdb_tables()", DatabaseEngine.DUCKDB)).isPresent();
        assertThat(gate("SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT * FROM stadium'))",
                DatabaseEngine.DUCKDB)).isPresent();
        assertThat(gate("SELECT name FROM singer WHERE sqlite_version() > '1'", DatabaseEngine.SQLITE))
                .contains("function sqlite_version is not available");
        assertThat(gate("DELETE FROM singer", DatabaseEngine.SQLITE)).contains(TableGate.NOT_A_QUERY);
    }

    @Test
    void theStatementIsReadInTheEnginesDialect() {
        String subscript = "SELECT (ARRAY[1, 2])[(SELECT count(*) FROM stadium)] FROM singer";
        assertThat(gate(subscript, DatabaseEngine.POSTGRESQL)).contains("table stadium is not available");
        assertThat(gate(subscript, DatabaseEngine.DUCKDB)).contains("table stadium is not available");
        assertThat(gate("SELECT [name] FROM [singer]", DatabaseEngine.SQLITE)).isEmpty();
    }

    @Test
    void errorTextKeepsOnlyWhatTheStatementItselfContains() {
        String sql = "SELECT CAST(name AS integer) FROM singer WHERE nme = 'x'";
        assertThat(ErrorRedaction.redact("ERROR: invalid input syntax for type integer: \"alice:250000:secret\"", sql))
                .isEqualTo("ERROR: invalid input syntax for type integer: \"?\"");
        assertThat(ErrorRedaction.redact("Conversion Error: Could not convert string 'Stark''s Park' to INT32", sql))
                .isEqualTo("Conversion Error: Could not convert string '?' to INT32");
        assertThat(ErrorRedaction.redact("value 123456 out of range; column \"nme\" does not exist", sql))
                .isEqualTo("value ? out of range; column \"nme\" does not exist");
    }
}

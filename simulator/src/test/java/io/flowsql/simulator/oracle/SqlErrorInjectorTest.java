package io.flowsql.simulator.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

class SqlErrorInjectorTest {
    private static final String WITH_WHERE =
            "SELECT name, country FROM singer WHERE age > 20 AND country = 'France'";
    private static final String WITH_AGGREGATE = "SELECT avg(age), max(age) FROM singer WHERE is_male = 'T'";

    private final SqlErrorInjector injector = SqlErrorInjector.uniform(1.0, 11);

    @Test
    void wrongColumnSwapsOneColumnForAnother() {
        String corrupted = injector.corrupt(WITH_WHERE, SqlErrorKind.WRONG_COLUMN, "").orElseThrow();
        assertThat(corrupted).isNotEqualTo(WITH_WHERE).containsIgnoringCase("FROM singer");
        assertThat(columnCount(corrupted, "name") + columnCount(corrupted, "country") + columnCount(corrupted, "age"))
                .isEqualTo(4);
    }

    @Test
    void wrongColumnUsesSchemaWhenTheQueryHasOneColumn() {
        String corrupted = injector.corrupt("SELECT name FROM singer", SqlErrorKind.WRONG_COLUMN,
                "Schema:\nsinger(singer_id, nationality)").orElseThrow();
        assertThat(corrupted).doesNotContain(" name ").containsAnyOf("singer_id", "nationality");
    }

    @Test
    void droppedConditionRemovesOneConjunct() {
        String corrupted = injector.corrupt(WITH_WHERE, SqlErrorKind.DROPPED_CONDITION, "").orElseThrow();
        boolean keptAge = corrupted.contains("age > 20");
        boolean keptCountry = corrupted.contains("country = 'France'");
        assertThat(keptAge ^ keptCountry).isTrue();
        assertThat(injector.corrupt("SELECT name FROM singer", SqlErrorKind.DROPPED_CONDITION, "")).isEmpty();
    }

    @Test
    void wrongAggregateSwapsTheFunction() {
        String corrupted = injector.corrupt(WITH_AGGREGATE, SqlErrorKind.WRONG_AGGREGATE, "").orElseThrow();
        assertThat(corrupted.toUpperCase()).satisfiesAnyOf(
                sql -> assertThat(sql).contains("SUM(AGE)").contains("MAX(AGE)"),
                sql -> assertThat(sql).contains("AVG(AGE)").contains("MIN(AGE)"));
        assertThat(injector.corrupt("SELECT count(*) FROM singer", SqlErrorKind.WRONG_AGGREGATE, "")).isEmpty();
    }

    @Test
    void syntaxErrorNoLongerParses() {
        for (String sql : new String[] {WITH_WHERE, WITH_AGGREGATE}) {
            String corrupted = injector.corrupt(sql, SqlErrorKind.SYNTAX_ERROR, "").orElseThrow();
            assertThatThrownBy(() -> CCJSqlParserUtil.parse(corrupted)).isInstanceOf(Exception.class);
        }
    }

    @Test
    void ratesDecideHowOftenAndSeedMakesItRepeatable() {
        SqlErrorInjector never = SqlErrorInjector.uniform(0.0, 1);
        assertThat(never.inject(WITH_WHERE, "").error()).isEmpty();
        Set<SqlErrorKind> seen = EnumSet.noneOf(SqlErrorKind.class);
        SqlErrorInjector first = SqlErrorInjector.uniform(1.0, 99);
        SqlErrorInjector second = SqlErrorInjector.uniform(1.0, 99);
        for (int i = 0; i < 40; i++) {
            InjectedSql a = first.inject(WITH_AGGREGATE, "");
            assertThat(a.error()).isPresent();
            assertThat(a.sql()).isNotEqualTo(WITH_AGGREGATE).isEqualTo(second.inject(WITH_AGGREGATE, "").sql());
            seen.add(a.error().get());
        }
        assertThat(seen).containsExactlyInAnyOrder(SqlErrorKind.values());
        SqlErrorInjector half = new SqlErrorInjector(Map.of(SqlErrorKind.SYNTAX_ERROR, 0.5), 3);
        long errors = java.util.stream.IntStream.range(0, 400)
                .filter(i -> half.inject(WITH_WHERE, "").error().isPresent()).count();
        assertThat(errors).isBetween(160L, 240L);
    }

    private static int columnCount(String sql, String column) {
        return sql.split("\\b" + column + "\\b", -1).length - 1;
    }
}

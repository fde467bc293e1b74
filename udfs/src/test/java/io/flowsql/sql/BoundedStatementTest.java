package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.Match;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.GuardVerdict;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqlStatementGuard;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Every step of handling untrusted SQL is bounded: the guard's parse (length, depth, time), its function check, the comparison. */
class BoundedStatementTest {

    private final SqlStatementGuard guard = new SqlStatementGuard();

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT \"load_extension\"('x')",
        "SELECT [load_extension]('x')",
        "SELECT `load_extension`('x')",
        "SELECT \"LOAD_EXTENSION\" ('x')",
        "SELECT name FROM singer WHERE name = [readfile]('/etc/passwd')",
        "SELECT * FROM \"sqlite_dbpage\"('main')",
    })
    void forbiddenFunctionsAreRefusedHoweverTheNameIsQuoted(String sql) {
        GuardVerdict verdict = guard.check(sql);
        assertThat(verdict.accepted()).as(sql).isFalse();
        assertThat(verdict.refusal()).as(sql).containsPattern("function (load_extension|readfile|sqlite_dbpage)\\(\\) is not allowed");
    }

    @Test
    void aQuotedNameThatIsNotAForbiddenFunctionStillRuns() {
        assertThat(guard.check("SELECT \"load_extension\" FROM t").accepted()).isTrue();
        assertThat(guard.check("SELECT 'load_extension(1)' FROM t").accepted()).isTrue();
    }

    @Test
    void depthAndLengthAreRefusedBeforeParsing() {
        long start = System.nanoTime();
        GuardVerdict deep = guard.check("SELECT " + "(".repeat(10_000) + "1" + ")".repeat(10_000));
        GuardVerdict longOne = guard.check("SELECT 1 WHERE 1 = 1" + " AND 1 = 1".repeat(20_000));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(deep.refusal()).isEqualTo("parentheses nested 10000 deep; at most 100 are accepted");
        assertThat(longOne.refusal()).startsWith("statement of 200020 characters; at most 100000");
        // 10,000 parentheses took JSqlParser 174 s; refused on a scan of the text
        assertThat(millis).isLessThan(2_000);
        assertThat(guard.check("SELECT " + "(".repeat(100) + "1" + ")".repeat(100)).accepted()).isTrue();
    }

    @Test
    void aParsePastItsTimeLimitIsStoppedAndLeftToSqlite() {
        SqlStatementGuard hurried = new SqlStatementGuard(SqlStatementGuard.DEFAULT_MAX_LENGTH, 100, 1);
        String big = "SELECT 1 WHERE " + "(a = 1 OR b = 'x') AND ".repeat(3_000) + "1 = 1";
        long start = System.nanoTime();
        GuardVerdict verdict = hurried.check(big, StatementBudget.startingNow(10_000));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(verdict.accepted()).isTrue();
        assertThat(verdict.needsSqliteCheck()).as("the parse did not finish: SQLite's check decides").isTrue();
        assertThat(millis).isLessThan(1_000);
    }

    @Test
    void aComparisonPastItsWorkBudgetIsUndecidedAtOnce() {
        List<List<Object>> rows = new ArrayList<>();
        int n = 20_000;
        for (long i = 0; i < n; i++) {
            rows.add(List.of(i, i * 3 % n, i * 7 % n, i * 9 % n, i * 11 % n, i * 13 % n, i * 17 % n));
        }
        ExecutionResult wide = new ExecutionResult(List.of("a", "b", "c", "d", "e", "f", "g"), rows, n, false, 1, null);
        ResultComparator suite = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        long start = System.nanoTime();
        Match match = suite.compare(wide, "SELECT * FROM t", wide, StatementBudget.startingNow(60_000));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(match.decided()).isFalse();
        assertThat(match.undecided()).startsWith("comparison budget exceeded: trying 5040 column orders of 20000 rows");
        assertThat(millis).isLessThan(10_000);
        // within budget, the same comparison decides: two columns tied
        List<List<Object>> narrow = rows.stream().map(r -> List.<Object>of(r.get(0), r.get(1))).toList();
        ExecutionResult two = new ExecutionResult(List.of("a", "b"), narrow, n, false, 1, null);
        assertThat(suite.compare(two, "SELECT * FROM t", two, StatementBudget.startingNow(60_000))).isEqualTo(Match.EQUAL);
    }

    @Test
    void aComparisonPastItsTimeIsUndecided() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 50_000; i++) {
            rows.add(List.of(i, "v" + i));
        }
        ExecutionResult result = new ExecutionResult(List.of("a", "b"), rows, rows.size(), false, 1, null);
        StatementBudget spent = StatementBudget.startingNow(1);
        while (!spent.expired()) {
            Thread.onSpinWait();
        }
        Match match = new ResultComparator(ComparisonMode.BIRD_SET).compare(result, "SELECT a, b FROM t", result, spent);
        assertThat(match.undecided()).isEqualTo("comparison budget exceeded: the statement's time budget of 1 ms ran out");
    }

    @Test
    void aValueLargerThanTheResultBudgetIsRefusedBySqliteNotMaterialised() {
        try (SqliteSafeExecutor small = new SqliteSafeExecutor(SpiderData.locator(),
                SqlExecutorConfig.defaults().withMaxBytes(4L << 20))) {
            ExecutionResult blob = small.execute("concert_singer", "SELECT zeroblob(500000000)");
            assertThat(blob.error().message()).contains("larger than the result budget of 4194304 bytes");
            // a result within the row cap but over the byte budget as encoded (hex doubles a blob) is cut
            ExecutionResult hex = small.execute("concert_singer",
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT zeroblob(1000000) FROM n");
            assertThat(hex.ok()).isTrue();
            assertThat(hex.truncated()).isTrue();
            assertThat(hex.rows()).hasSize(2);
        }
    }
}

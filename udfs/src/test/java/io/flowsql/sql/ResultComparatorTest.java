package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.compare.ResultFingerprint;
import io.flowsql.sql.compare.TopLevelOrderBy;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hand-checked comparison cases for both modes, and the fingerprint against a brute-force reference. */
class ResultComparatorTest {

    private final ResultComparator bird = new ResultComparator(ComparisonMode.BIRD_SET);
    private final ResultComparator suite = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);

    private static ExecutionResult result(Object[]... rows) {
        List<List<Object>> list = new ArrayList<>();
        for (Object[] row : rows) {
            list.add(Arrays.asList(row));
        }
        int width = rows.length == 0 ? 1 : rows[0].length;
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            columns.add("c" + i);
        }
        return new ExecutionResult(columns, list, list.size(), false, 1, null);
    }

    private static Object[] row(Object... values) {
        return values;
    }

    @Test
    void birdIgnoresDuplicatesAndOrderButKeepsColumnOrder() {
        ExecutionResult gold = result(row(1L, "a"), row(2L, "b"));
        assertThat(bird.equal(gold, result(row(2L, "b"), row(1L, "a"), row(1L, "a")), false)).isTrue();
        assertThat(bird.equal(gold, result(row("a", 1L), row("b", 2L)), false)).isFalse();
        assertThat(bird.equal(gold, result(row(1L, "a")), false)).isFalse();
    }

    @Test
    void testSuiteCountsDuplicatesAndAllowsColumnPermutations() {
        ExecutionResult gold = result(row(1L, "a"), row(2L, "b"), row(2L, "b"));
        assertThat(suite.equal(gold, result(row(2L, "b"), row(1L, "a"), row(2L, "b")), false)).isTrue();
        assertThat(suite.equal(gold, result(row(1L, "a"), row(2L, "b")), false)).isFalse();
        assertThat(suite.equal(gold, result(row("b", 2L), row("a", 1L), row("b", 2L)), false)).isTrue();
        // same columns, but the rows pair the values differently
        assertThat(suite.equal(result(row(1L, 10L), row(2L, 20L)), result(row(10L, 2L), row(20L, 1L)), false)).isFalse();
        assertThat(suite.equal(result(row(1L, 1L, 2L)), result(row(1L, 2L)), false)).isFalse();
    }

    @Test
    void orderMattersOnlyWhenTheGoldSortsAtTopLevel() {
        ExecutionResult gold = result(row("x"), row("y"));
        ExecutionResult reversed = result(row("y"), row("x"));
        assertThat(suite.equal(gold, "SELECT n FROM t ORDER BY n", reversed)).isFalse();
        assertThat(suite.equal(gold, "SELECT n FROM t", reversed)).isTrue();
        assertThat(suite.equal(gold, "SELECT n FROM (SELECT n FROM t ORDER BY n LIMIT 3)", reversed)).isTrue();
        assertThat(bird.equal(gold, "SELECT n FROM t ORDER BY n", reversed)).isTrue();
        assertThat(TopLevelOrderBy.present("SELECT rank() OVER (ORDER BY a) FROM t")).isFalse();
        assertThat(TopLevelOrderBy.present("SELECT a FROM t WHERE b = 'order by' ")).isFalse();
        assertThat(TopLevelOrderBy.present("SELECT a FROM t UNION SELECT a FROM u order\n by 1")).isTrue();
    }

    @Test
    void floatsIntegersNullsAndText() {
        assertThat(suite.equal(result(row(0.3)), result(row(0.1 + 0.2)), false)).isTrue();
        assertThat(suite.equal(result(row(1L)), result(row(1.0)), false)).isTrue();
        assertThat(bird.equal(result(row(12345678901L)), result(row(12345678901.0)), false)).isTrue();
        assertThat(suite.equal(result(row(2.0 / 3)), result(row(0.6666666667)), false)).isTrue();
        assertThat(suite.equal(result(row(1.5)), result(row(1.51)), false)).isFalse();
        assertThat(suite.equal(result(row((Object) null)), result(row((Object) null)), false)).isTrue();
        assertThat(suite.equal(result(row((Object) null)), result(row("")), false)).isFalse();
        assertThat(suite.equal(result(row("1")), result(row(1L)), false)).isFalse();
        assertThat(suite.equal(result(row("Paris")), result(row("paris")), false)).isFalse();
        assertThat(suite.equal(result(), result(), false)).isTrue();
    }

    @Test
    void failedResultsEqualNothing() {
        ExecutionResult failed = ExecutionResult.failed(new SqlError(SqlError.Kind.INVALID_SQL, "x"), 1);
        assertThat(bird.equal(failed, failed, false)).isFalse();
        assertThat(ResultFingerprint.of(failed, ComparisonMode.BIRD_SET)).isNull();
    }

    @Test
    void fingerprintsAgreeWithABruteForceReference() {
        Random random = new Random(42);
        List<ExecutionResult> results = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ExecutionResult base = randomResult(random);
            results.add(base);
            results.add(shuffledRowsAndColumns(base, random));
        }
        for (ComparisonMode mode : ComparisonMode.values()) {
            for (boolean ordered : new boolean[] {false, true}) {
                int equalPairs = 0;
                for (ExecutionResult a : results) {
                    for (ExecutionResult b : results) {
                        boolean reference = referenceEqual(a, b, mode, ordered);
                        boolean byKey = ResultFingerprint.of(a, mode, ordered).equals(ResultFingerprint.of(b, mode, ordered));
                        assertThat(byKey).as("%s ordered=%s %s vs %s", mode, ordered, a.rows(), b.rows()).isEqualTo(reference);
                        equalPairs += reference ? 1 : 0;
                    }
                }
                assertThat(equalPairs).isGreaterThan(results.size());
            }
        }
    }

    @Test
    void realSpiderResultsCompareAcrossEquivalentQueries() {
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(SpiderData.locator(), SqlExecutorConfig.defaults())) {
            String goldSql = "SELECT Name, Age FROM singer ORDER BY Age DESC";
            ExecutionResult gold = executor.execute("concert_singer", goldSql);
            ExecutionResult swapped = executor.execute("concert_singer", "SELECT Age, Name FROM singer ORDER BY Age DESC");
            ExecutionResult unsorted = executor.execute("concert_singer", "SELECT Name, Age FROM singer");
            ExecutionResult asReal = executor.execute("concert_singer", "SELECT Name, CAST(Age AS REAL) FROM singer ORDER BY Age DESC");
            assertThat(suite.equal(gold, goldSql, swapped)).isTrue();
            assertThat(bird.equal(gold, goldSql, swapped)).isFalse();
            assertThat(suite.equal(gold, goldSql, unsorted)).isFalse();
            assertThat(bird.equal(gold, goldSql, unsorted)).isTrue();
            assertThat(suite.equal(gold, goldSql, asReal)).isTrue();
        }
    }

    /** Small results with few distinct values, so duplicate rows and tied columns are common. */
    private static ExecutionResult randomResult(Random random) {
        int width = 1 + random.nextInt(3);
        int height = random.nextInt(4);
        Object[][] rows = new Object[height][];
        Object[] pool = {1L, 1.0, 2L, "a", "b", null, 2.5};
        for (int r = 0; r < height; r++) {
            rows[r] = new Object[width];
            for (int c = 0; c < width; c++) {
                rows[r][c] = pool[random.nextInt(pool.length)];
            }
        }
        return result(rows);
    }

    private static ExecutionResult shuffledRowsAndColumns(ExecutionResult base, Random random) {
        List<List<Object>> rows = new ArrayList<>(base.rows());
        if (random.nextBoolean()) {
            Collections.shuffle(rows, random);
        }
        int width = base.columns().size();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            order.add(i);
        }
        if (random.nextBoolean()) {
            Collections.shuffle(order, random);
        }
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> permuted = new ArrayList<>();
            for (int c : order) {
                permuted.add(row.get(c));
            }
            out.add(permuted);
        }
        return new ExecutionResult(base.columns(), out, out.size(), false, 1, null);
    }

    /** Straight from the evaluators' definitions, with values compared as 1 == 1.0. */
    private static boolean referenceEqual(ExecutionResult a, ExecutionResult b, ComparisonMode mode, boolean ordered) {
        List<List<Object>> x = normalised(a.rows());
        List<List<Object>> y = normalised(b.rows());
        if (mode == ComparisonMode.BIRD_SET) {
            return new java.util.HashSet<>(x).equals(new java.util.HashSet<>(y));
        }
        if (x.isEmpty() && y.isEmpty()) {
            return true;
        }
        if (x.size() != y.size() || x.get(0).size() != y.get(0).size()) {
            return false;
        }
        for (List<Integer> permutation : permutations(x.get(0).size())) {
            List<List<Object>> permuted = new ArrayList<>();
            for (List<Object> row : y) {
                List<Object> p = new ArrayList<>();
                for (int c : permutation) {
                    p.add(row.get(c));
                }
                permuted.add(p);
            }
            if (ordered ? permuted.equals(x) : counts(permuted).equals(counts(x))) {
                return true;
            }
        }
        return false;
    }

    private static List<List<Object>> normalised(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> n = new ArrayList<>();
            for (Object v : row) {
                n.add(v instanceof Long l ? (Object) l.doubleValue() : v);
            }
            out.add(n);
        }
        return out;
    }

    private static Map<List<Object>, Integer> counts(List<List<Object>> rows) {
        Map<List<Object>, Integer> counts = new HashMap<>();
        rows.forEach(r -> counts.merge(r, 1, Integer::sum));
        return counts;
    }

    private static List<List<Integer>> permutations(int n) {
        List<List<Integer>> out = new ArrayList<>();
        permute(new ArrayList<>(), n, out);
        return out;
    }

    private static void permute(List<Integer> prefix, int n, List<List<Integer>> out) {
        if (prefix.size() == n) {
            out.add(new ArrayList<>(prefix));
            return;
        }
        for (int i = 0; i < n; i++) {
            if (!prefix.contains(i)) {
                prefix.add(i);
                permute(prefix, n, out);
                prefix.remove(prefix.size() - 1);
            }
        }
    }
}

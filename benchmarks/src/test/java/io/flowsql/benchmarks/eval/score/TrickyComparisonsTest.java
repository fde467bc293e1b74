package io.flowsql.benchmarks.eval.score;

import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.load.BirdFixture;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The scorer on the generated BIRD fixture, with gold/prediction pairs whose verdict differs between BIRD and Spider test-suite semantics. */
class TrickyComparisonsTest {
    private static Path folder;

    @BeforeAll
    static void fixture() throws Exception {
        folder = BirdFixture.create(Path.of("target", "bird-fixture-tricky"));
    }

    private static ItemOutcome score(ComparisonMode mode, String gold, String predicted) {
        return score(mode, gold, new Prediction("0", -1, predicted, null, List.of()));
    }

    private static ItemOutcome score(ComparisonMode mode, String gold, Prediction prediction) {
        BenchmarkItem item = new BenchmarkItem("0", 0, BirdFixture.DB, "q", "", gold, "simple", null, 0, null);
        Benchmark bench = new Benchmark("fixture", List.of(item), folder.resolve("dev_databases"));
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(
                new DatabaseLocator(List.of(folder.resolve("dev_databases")), List.of()), SqlExecutorConfig.defaults())) {
            return new Scorer(DataDoors.open(executor, null), new ResultComparator(mode), null).score(bench, List.of(prediction), n -> {}).get(0);
        }
    }

    @Test
    void aClarificationIsRightWhenOneOfItsReadingsGivesTheGoldResult() {
        String gold = "SELECT count(DISTINCT customer) FROM orders";
        Prediction readings = new Prediction("0", -1, null, "ambiguous", List.of(),
                List.of("SELECT count(customer) FROM orders", "SELECT count(DISTINCT customer) FROM orders"));
        ItemOutcome outcome = score(ComparisonMode.SPIDER_TEST_SUITE, gold, readings);
        assertThat(outcome.correct()).isTrue();
        Prediction wrongReadings = new Prediction("0", -1, null, "ambiguous", List.of(),
                List.of("SELECT count(customer) FROM orders", "SELECT count(*) FROM orders WHERE id < 0"));
        assertThat(score(ComparisonMode.SPIDER_TEST_SUITE, gold, wrongReadings).correct()).isFalse();
    }

    private static boolean bird(String gold, String pred) {
        return score(ComparisonMode.BIRD_SET, gold, pred).correct();
    }

    private static boolean suite(String gold, String pred) {
        return score(ComparisonMode.SPIDER_TEST_SUITE, gold, pred).correct();
    }

    @Test
    void orderByCountsOnlyInTestSuiteModeWhenGoldSorts() {
        String gold = "SELECT customer FROM orders ORDER BY id";
        String reversed = "SELECT customer FROM orders ORDER BY id DESC";
        assertThat(bird(gold, reversed)).isTrue();
        assertThat(suite(gold, reversed)).isFalse();
        assertThat(suite("SELECT id FROM orders", "SELECT id FROM orders ORDER BY id DESC")).isTrue();
    }

    @Test
    void duplicatesCountOnlyInTestSuiteMode() {
        assertThat(bird("SELECT customer FROM orders", "SELECT DISTINCT customer FROM orders")).isTrue();
        assertThat(suite("SELECT customer FROM orders", "SELECT DISTINCT customer FROM orders")).isFalse();
    }

    @Test
    void columnOrderCountsOnlyInBirdMode() {
        assertThat(bird("SELECT id, customer FROM orders", "SELECT customer, id FROM orders")).isFalse();
        assertThat(suite("SELECT id, customer FROM orders", "SELECT customer, id FROM orders")).isTrue();
    }

    @Test
    void floatsAndNullsCompareByValue() {
        assertThat(bird("SELECT SUM(amount) FROM orders WHERE customer = 'Ann'", "SELECT 10.5 + 7.25")).isTrue();
        assertThat(suite("SELECT SUM(amount) FROM orders WHERE customer = 'Ann'", "SELECT 17.75")).isTrue();
        assertThat(bird("SELECT SUM(amount) FROM orders WHERE customer = 'Ann'", "SELECT 17.5")).isFalse();
        assertThat(bird("SELECT amount FROM orders WHERE customer = 'Cy'", "SELECT NULL")).isTrue();
        assertThat(suite("SELECT amount FROM orders WHERE customer = 'Cy'", "SELECT 0")).isFalse();
    }

    @Test
    void goldErrorsAreSetApartAndPredictionErrorsAreWrong() {
        ItemOutcome goldFails = score(ComparisonMode.BIRD_SET, "SELECT nope FROM orders", "SELECT 1");
        assertThat(goldFails.scorable()).isFalse();
        assertThat(goldFails.goldError()).contains("nope");
        ItemOutcome predFails = score(ComparisonMode.BIRD_SET, "SELECT 1", "SELEC 1");
        assertThat(predFails.scorable()).isTrue();
        assertThat(predFails.correct()).isFalse();
        assertThat(predFails.predError()).isNotBlank();
        ItemOutcome writes = score(ComparisonMode.BIRD_SET, "SELECT count(*) FROM orders", "DELETE FROM orders");
        assertThat(writes.correct()).isFalse();
        assertThat(score(ComparisonMode.BIRD_SET, "SELECT count(*) FROM orders", "SELECT 5").correct()).isTrue();
    }
}

package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.load.BirdFixture;
import io.flowsql.benchmarks.eval.metrics.ExecutionAccuracy;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.report.QuestionVerdict;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** BIRD's evaluator's rules on the generated BIRD-layout fixture (no BIRD database exists here). */
class BirdExecTest {
    private static Path folder;

    @BeforeAll
    static void fixture() throws Exception {
        folder = BirdFixture.create(Path.of("target", "bird-fixture-exec"));
    }

    private static ItemOutcome score(String gold, String predicted) {
        BenchmarkItem item = new BenchmarkItem("0", 0, BirdFixture.DB, "q", "", gold, "simple", null, 0, null);
        Benchmark bench = new Benchmark("bird-dev", List.of(item), folder.resolve("dev_databases"));
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(
                new DatabaseLocator(List.of(folder.resolve("dev_databases")), List.of()), SqlExecutorConfig.defaults())) {
            return new Scorer(DataDoors.open(executor, null), new BirdExec(), null)
                    .score(bench, List.of(new Prediction(null, 0, predicted, null, List.of())), n -> {}).get(0);
        }
    }

    @Test
    void rowsAreComparedAsSetsWithColumnOrderKept() {
        // duplicates and row order do not matter
        assertThat(score("SELECT customer FROM orders", "SELECT DISTINCT customer FROM orders ORDER BY customer DESC").correct()).isTrue();
        // column order does
        assertThat(score("SELECT id, customer FROM orders", "SELECT customer, id FROM orders").correct()).isFalse();
        // exact values: 20 and 20.0 are equal, 10.5 and 10.50000000001 are not
        assertThat(score("SELECT amount FROM orders WHERE id = 2", "SELECT 20").correct()).isTrue();
        assertThat(score("SELECT amount FROM orders WHERE id = 1", "SELECT 10.50000000001").correct()).isFalse();
        // no rewrite: DISTINCT is not dropped (sets anyway), ' value ' is not plugged
        assertThat(score("SELECT count(*) FROM orders", "SELECT count(*) FROM orders WHERE id > value - 100").correct()).isFalse();
    }

    @Test
    void aFailingGoldCountsWrongAndStaysInTheDenominator() {
        ItemOutcome o = score("SELECT nope FROM orders", "SELECT nope FROM orders");
        assertThat(o.correct()).isFalse();
        assertThat(o.scorable()).isTrue();
        assertThat(o.predError()).contains("gold query failed").contains("bird-exec");
        assertThat(ExecutionAccuracy.overall(List.of(o)).total()).isEqualTo(1);
        assertThat(QuestionVerdict.of(o).verdict()).isEqualTo("error");
    }
}

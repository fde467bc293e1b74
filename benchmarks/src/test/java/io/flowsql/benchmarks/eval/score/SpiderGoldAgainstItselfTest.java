package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.ExecutionAccuracy;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.semantics.SpiderTestSuiteExec;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Spider dev's gold file, read as a Spider-style prediction file, must score 100% on the 972 runnable questions. */
class SpiderGoldAgainstItselfTest {

    @Test
    void goldScoresFullMarksWithTheOfficialSemantics() {
        Benchmark spider = new BenchmarkLoaders(SharedData.root()).load("spider-dev", null);
        List<Prediction> predictions = PredictionFormat.SQL_LINES.read(SharedData.root().resolve("spider/dev_gold.sql"));
        assertThat(predictions).hasSize(1034);

        try (SqlExecutor executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(spider.databaseRoot()), List.of()),
                SqlExecutorConfig.defaults().withTimeoutMillis(30_000).withMaxRows(1_000_000).withMaxBytes(512L << 20))) {
            List<ItemOutcome> outcomes = new Scorer(executor, new SpiderTestSuiteExec(), null).score(spider, predictions, done -> {});
            assertThat(outcomes).hasSize(972);
            assertThat(ExecutionAccuracy.goldErrors(outcomes)).isZero();
            assertThat(ExecutionAccuracy.overall(outcomes)).isEqualTo(new Accuracy(972, 972));
            Map<String, Accuracy> byLevel = ExecutionAccuracy.byDifficulty(outcomes);
            assertThat(byLevel.values()).allMatch(a -> a.correct() == a.total());
            assertThat(byLevel.values().stream().mapToInt(Accuracy::total).sum()).isEqualTo(972);
        }
    }
}

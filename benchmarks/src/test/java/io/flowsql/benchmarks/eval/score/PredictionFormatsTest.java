package io.flowsql.benchmarks.eval.score;

import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BirdFixture;
import io.flowsql.benchmarks.eval.load.BirdLoader;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each exchanged prediction format read from a file and scored on the generated BIRD fixture (question 0 right, 1 wrong, 2 has no database). */
class PredictionFormatsTest {
    private static Path folder;
    private static Benchmark bench;

    @BeforeAll
    static void fixture() throws Exception {
        folder = BirdFixture.create(Path.of("target", "bird-fixture-formats"));
        bench = new BirdLoader().load(folder);
    }

    private static List<ItemOutcome> score(List<Prediction> predictions) {
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(
                new DatabaseLocator(List.of(folder.resolve("dev_databases")), List.of()), SqlExecutorConfig.defaults())) {
            return new Scorer(DataDoors.open(executor, null), new ResultComparator(ComparisonMode.BIRD_SET), null).score(bench, predictions, n -> {});
        }
    }

    @Test
    void birdPredictDevJson() throws Exception {
        Path file = Files.writeString(folder.resolve("predict_dev.json"), """
                {"1": "SELECT customer FROM orders\\t----- bird -----\\ttoy_shop",
                 "0": "SELECT 17.75\\t----- bird -----\\ttoy_shop"}
                """);
        assertThat(PredictionFormat.detect(file)).isEqualTo(PredictionFormat.BIRD_JSON);
        List<Prediction> read = PredictionFormat.BIRD_JSON.read(file);
        assertThat(read).extracting(Prediction::ordinal).containsExactlyInAnyOrder(0, 1);
        assertThat(read).extracting(Prediction::sql).contains("SELECT 17.75");
        assertThat(score(read)).extracting(ItemOutcome::correct).containsExactly(true, false);
    }

    @Test
    void oneSqlPerLineInDevOrder() throws Exception {
        Path file = Files.writeString(folder.resolve("pred.sql"),
                "SELECT 1\nSELECT customer FROM orders WHERE status = 'open'\ttoy_shop\nSELECT 1\n");
        List<Prediction> read = PredictionFormat.detect(file).read(file);
        assertThat(read).extracting(Prediction::sql)
                .containsExactly("SELECT 1", "SELECT customer FROM orders WHERE status = 'open'", "SELECT 1");
        // question 1's gold is DISTINCT and sorted: under BIRD's set semantics the plain list matches
        assertThat(score(read)).extracting(ItemOutcome::correct).containsExactly(false, true);
    }

    @Test
    void projectAnswersJsonlWithTraceAndMissingAnswer() throws Exception {
        Path file = Files.writeString(folder.resolve("answers.jsonl"), """
                {"request_id":"eval:bird-dev:0","db_id":"toy_shop","status":"answered","question_type":"answerable","sql":"SELECT SUM(amount) FROM orders WHERE customer = 'Ann'","trace":[{"stage":"generate","latency_ms":120,"prompt_tokens":900,"completion_tokens":40}],"simulated":true}
                """);
        List<Prediction> read = PredictionFormat.detect(file).read(file);
        assertThat(read).singleElement().satisfies(p -> {
            assertThat(p.key()).isEqualTo("0");
            assertThat(p.stages()).hasSize(1);
        });
        List<ItemOutcome> outcomes = score(read);
        assertThat(outcomes.get(0).correct()).isTrue();
        assertThat(outcomes.get(0).promptTokens()).isEqualTo(900);
        assertThat(outcomes.get(1).predError()).isEqualTo("no prediction");
    }
}

package io.flowsql.benchmarks.eval.run;

import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.report.EvaluationSummary;
import io.flowsql.benchmarks.eval.report.ReportWriter;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** 30 Spider dev questions through broker → job on a MiniCluster → simulated LLM (oracle) → answers file → report; a second run resumes with nothing to ask. */
class BulkEvaluationITCase {

    @Test
    void sliceOfSpiderDevThroughTheStreamingJobProducesTheReport() throws Exception {
        Path data = SharedData.root();
        Benchmark bench = new BenchmarkLoaders(data).load("spider-dev", null);
        bench = bench.withItems(bench.runnableItems().subList(0, 30));
        Path dir = Files.createDirectories(Path.of("target", "bulk-eval-it"));
        Path answers = dir.resolve("answers.jsonl");
        Files.deleteIfExists(answers);

        try (LocalStack stack = LocalStack.start(data, null, "simulated-oracle", List.of(data.resolve("spider/dev.json")), 2)) {
            assertThat(stack.simulated()).isTrue();
            KafkaBenchmarkRunner runner = new KafkaBenchmarkRunner(stack.bootstrapServers(), LocalStack.QUESTIONS, LocalStack.ANSWERS, null);
            assertThat(runner.run(bench, answers, Duration.ofMinutes(3))).isZero();
            assertThat(AnswersFile.answeredRequestIds(answers)).hasSize(30);
            // resuming: everything is answered, nothing is sent, the file is unchanged
            long size = Files.size(answers);
            assertThat(runner.run(bench, answers, Duration.ofSeconds(5))).isZero();
            assertThat(Files.size(answers)).isEqualTo(size);
        }

        try (SqlExecutor executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(bench.databaseRoot()), List.of()),
                SqlExecutorConfig.defaults())) {
            List<ItemOutcome> outcomes = new Scorer(executor, new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE), null)
                    .score(bench, PredictionFormat.ANSWERS_JSONL.read(answers), n -> {});
            EvaluationSummary s = EvaluationSummary.of(bench, answers.toString(), "SPIDER_TEST_SUITE", outcomes, 0.15, 0.6);
            assertThat(s.ex().total()).isEqualTo(30);
            assertThat(s.missingPredictions()).isZero();
            assertThat(s.hasTrace()).isTrue();
            List<Path> files = new ReportWriter().write(s, dir);
            assertThat(Files.readString(files.get(0))).contains("| **all** | " + s.ex().correct() + " | 30 |");
            System.out.printf("bulk ITCase: EX %.2f%% (%d/30), tokens %d%n", s.ex().percent(), s.ex().correct(),
                    s.tokens().promptTokens() + s.tokens().completionTokens());
        }
    }
}

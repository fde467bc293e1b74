package io.flowsql.benchmarks.eval.run;

import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.report.EvaluationSummary;
import io.flowsql.benchmarks.eval.report.ReportWriter;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.benchmarks.eval.score.RequestIds;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * 30 Spider dev questions through broker → job on a MiniCluster → simulated LLM (oracle, with injected errors) →
 * answers file → report; then an interrupted run is resumed: answers lost from the file are recovered from the
 * answers topic and the LLM is not asked again; a second run with another preset against the same job reports only
 * its own answers.
 */
class BulkEvaluationITCase {

    @Test
    void sliceOfSpiderDevThroughTheStreamingJobProducesTheReport() throws Exception {
        Path data = SharedData.root();
        Benchmark bench = new BenchmarkLoaders(data).load("spider-dev", null);
        bench = bench.withItems(bench.runnableItems().subList(0, 30));
        Path dir = Files.createDirectories(Path.of("target", "bulk-eval-it"));
        Path answers = dir.resolve("answers.jsonl");
        Files.deleteIfExists(answers);

        try (LocalStack stack = LocalStack.start(data, bench.databaseRoot(), null, "simulated-oracle",
                List.of(data.resolve("spider/dev.json")), SqlErrorInjector.uniform(0.3, 11), 2)) {
            assertThat(stack.simulated()).isTrue();
            KafkaBenchmarkRunner runner = new KafkaBenchmarkRunner(stack.bootstrapServers(), LocalStack.QUESTIONS, LocalStack.ANSWERS, null,
                    "bulk-it");
            KafkaBenchmarkRunner.RunResult first = runner.run(bench, answers, Duration.ofMinutes(3));
            assertThat(first).isEqualTo(new KafkaBenchmarkRunner.RunResult(30, 0, 0));
            assertThat(AnswersFile.answeredRequestIds(answers)).hasSize(30);

            // an interruption lost the last 10 answers from the file: they are recovered from the topic, none is re-asked
            List<String> lines = Files.readAllLines(answers);
            Files.write(answers, lines.subList(0, 20));
            long llmRequests = stack.simulatedLlmRequests();
            KafkaBenchmarkRunner.RunResult resumed = runner.run(bench, answers, Duration.ofSeconds(30));
            assertThat(resumed).isEqualTo(new KafkaBenchmarkRunner.RunResult(0, 10, 0));
            assertThat(stack.simulatedLlmRequests()).isEqualTo(llmRequests);
            assertThat(AnswersFile.answeredRequestIds(answers)).hasSize(30);
            assertThat(Files.readAllLines(answers)).hasSize(30);
            // a file holding a run is resumed only by naming that run
            assertThatThrownBy(() -> EvalRunId.choose(null, answers)).hasMessageContaining("--run-id bulk-it");

            // a second run with another preset against the same running job sends all its questions and reports
            // only its own answers (the first run's are on the topic under other request ids)
            Benchmark firstTen = bench.withItems(bench.runnableItems().subList(0, 10));
            Path mmsqlAnswers = dir.resolve("answers-mmsql.jsonl");
            Files.deleteIfExists(mmsqlAnswers);
            String secondRun = EvalRunId.choose(null, mmsqlAnswers);
            KafkaBenchmarkRunner.RunResult second = new KafkaBenchmarkRunner(stack.bootstrapServers(), LocalStack.QUESTIONS,
                    LocalStack.ANSWERS, "mmsql", secondRun).run(firstTen, mmsqlAnswers, Duration.ofMinutes(2));
            assertThat(second).isEqualTo(new KafkaBenchmarkRunner.RunResult(10, 0, 0));
            List<AnswerEvent> mmsql = new ArrayList<>();
            for (String line : Files.readAllLines(mmsqlAnswers)) {
                mmsql.add(EventJson.parseAnswer(line.getBytes(StandardCharsets.UTF_8)));
            }
            assertThat(mmsql).hasSize(10).allSatisfy(a -> {
                assertThat(RequestIds.runId(a.requestId)).isEqualTo(secondRun);
                assertThat(a.trace).extracting(t -> t.stage).contains("mmsql.detect").doesNotContain("opensearch.generate");
            });
        }

        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(bench.databaseRoot()), List.of()),
                SqlExecutorConfig.defaults())) {
            List<ItemOutcome> outcomes = new Scorer(DataDoors.open(executor, null), new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE), null)
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

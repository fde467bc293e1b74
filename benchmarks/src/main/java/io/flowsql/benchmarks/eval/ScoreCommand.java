package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.report.EvaluationSummary;
import io.flowsql.benchmarks.eval.report.ReportWriter;
import io.flowsql.benchmarks.eval.score.EfficiencyTimer;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code score}: scores a prediction file against a benchmark with no LLM and writes the reports. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Score a prediction file (BIRD predict_dev.json, one SQL per line, or answers JSONL) with no LLM.")
public final class ScoreCommand implements Callable<Integer> {

    @Option(names = "--benchmark", required = true, description = "spider-dev, bird-dev, bird-minidev or cosql-dev")
    String benchmark;

    @Option(names = "--benchmark-path", description = "Folder of the benchmark (default: under --data)")
    Path benchmarkPath;

    @Option(names = "--data", defaultValue = "../shared/data", description = "Benchmark data folder (default: ${DEFAULT-VALUE})")
    Path data;

    @Option(names = "--predictions", required = true, description = "The prediction file")
    Path predictions;

    @Option(names = "--format", description = "bird, sql-lines or answers (default: from the file name)")
    String format;

    @Option(names = "--comparison", description = "BIRD_SET or SPIDER_TEST_SUITE (default: the benchmark's own: BIRD_SET for BIRD, SPIDER_TEST_SUITE otherwise)")
    ComparisonMode comparison;

    @Option(names = "--ves-runs", defaultValue = "0", description = "Timed runs per correct question for VES/R-VES (BIRD uses 100; 0 = off)")
    int vesRuns;

    @Option(names = "--timeout-ms", defaultValue = "30000", description = "Time limit per statement")
    long timeoutMillis;

    @Option(names = "--price-prompt", defaultValue = "0", description = "Price per 1M prompt tokens")
    double pricePrompt;

    @Option(names = "--price-completion", defaultValue = "0", description = "Price per 1M completion tokens")
    double priceCompletion;

    @Option(names = "--out", defaultValue = "eval-report", description = "Folder for report.md/html/json")
    Path out;

    @Override
    public Integer call() {
        Benchmark bench = new BenchmarkLoaders(data).load(benchmark, benchmarkPath);
        PredictionFormat fmt = format == null ? PredictionFormat.detect(predictions) : PredictionFormat.parse(format);
        EvaluationSummary summary = score(bench, fmt.read(predictions), predictions.toString(), executorFor(bench, timeoutMillis),
                comparisonFor(comparison, benchmark), vesRuns, pricePrompt, priceCompletion);
        List<Path> files = new ReportWriter().write(summary, out);
        System.out.printf("%s EX (%s) %.2f%% (%d/%d), gold errors %d%n", bench.name(), summary.comparison(), summary.ex().percent(),
                summary.ex().correct(), summary.ex().total(), summary.goldErrors().size());
        files.forEach(f -> System.out.println("wrote " + f));
        return 0;
    }

    /** Scores with a progress bar and builds the summary; shared by {@code score} and {@code run}. */
    static EvaluationSummary score(Benchmark bench, List<Prediction> predictions, String source, SqlExecutor executor,
                                   ComparisonMode comparison, int vesRuns, double pricePrompt, double priceCompletion) {
        try (executor; ProgressBar bar = new ProgressBar("score " + bench.name(), bench.runnableItems().size())) {
            Scorer scorer = new Scorer(executor, new ResultComparator(comparison), vesRuns > 0 ? new EfficiencyTimer(executor, vesRuns) : null);
            List<ItemOutcome> outcomes = scorer.score(bench, predictions, bar::stepTo);
            return EvaluationSummary.of(bench, source, comparison.name(), outcomes, pricePrompt, priceCompletion);
        }
    }

    /** The comparison asked for, else the benchmark's own evaluator's: BIRD's set semantics for BIRD, Spider's test suite for the rest. */
    static ComparisonMode comparisonFor(ComparisonMode asked, String benchmark) {
        if (asked != null) {
            return asked;
        }
        return benchmark.toLowerCase(java.util.Locale.ROOT).startsWith("bird") ? ComparisonMode.BIRD_SET : ComparisonMode.SPIDER_TEST_SUITE;
    }

    static SqlExecutor executorFor(Benchmark bench, long timeoutMillis) {
        DatabaseLocator locator = new DatabaseLocator(List.of(bench.databaseRoot()), List.of());
        return new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults().withTimeoutMillis(timeoutMillis)
                .withMaxRows(1_000_000).withMaxBytes(512L << 20));
    }
}

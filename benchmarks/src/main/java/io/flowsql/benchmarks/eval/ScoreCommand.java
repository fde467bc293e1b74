package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.load.Benchmark;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code score}: scores a prediction file against a benchmark with no LLM and writes the reports. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Score a prediction file (BIRD predict_dev.json, one SQL per line, or answers JSONL) with no LLM.")
public final class ScoreCommand implements Callable<Integer> {

    @Mixin
    BenchmarkChoice choice;

    @Mixin
    ReportChoice report;




    @Option(names = "--predictions", required = true, description = "The prediction file")
    Path predictions;

    @Option(names = "--format", description = "bird, sql-lines or answers (default: from the file name)")
    String format;


    @Option(names = "--ves-runs", defaultValue = "0", description = "Timed runs per correct question for VES/R-VES (BIRD uses 100; 0 = off)")
    int vesRuns;

    @Option(names = "--timeout-ms", defaultValue = "30000",
            description = "Budget per statement: its parse, execution, result encoding and comparison together")
    long timeoutMillis;

    @Option(names = "--parallel", description = "Questions scored at once on a bounded pool (default: processors, at least 2)")
    int parallel = defaultParallelism();

    @Option(names = "--max-result-bytes", defaultValue = "67108864",
            description = "Bytes of one result as the comparison encodes it (text as UTF-8, blobs as hex); larger values are refused")
    long maxResultBytes;




    @Override
    public Integer call() {
        Benchmark bench = choice.load();
        PredictionFormat fmt = format == null ? PredictionFormat.detect(predictions) : PredictionFormat.parse(format);
        EvaluationSummary summary = score(bench, fmt.read(predictions), predictions.toString(),
                executorFor(bench, timeoutMillis, maxResultBytes, parallel), parallel,
                report.comparisonFor(choice.benchmark), vesRuns, report.pricePrompt, report.priceCompletion);
        List<Path> files = new ReportWriter().write(summary, report.out);
        System.out.printf("%s EX (%s) %.2f%% (%d/%d), gold errors %d%n", bench.name(), summary.comparison(), summary.ex().percent(),
                summary.ex().correct(), summary.ex().total(), summary.goldErrors().size());
        files.forEach(f -> System.out.println("wrote " + f));
        return 0;
    }

    /** Scores with a progress bar and builds the summary; shared by {@code score} and {@code run}. */
    static EvaluationSummary score(Benchmark bench, List<Prediction> predictions, String source, SqlExecutor executor,
                                   int parallel, ComparisonMode comparison, int vesRuns, double pricePrompt,
                                   double priceCompletion) {
        try (executor; ProgressBar bar = new ProgressBar("score " + bench.name(), bench.runnableItems().size())) {
            Scorer scorer = new Scorer(executor, new ResultComparator(comparison),
                    vesRuns > 0 ? new EfficiencyTimer(executor, vesRuns) : null, parallel);
            List<ItemOutcome> outcomes = scorer.score(bench, predictions, bar::stepTo);
            return EvaluationSummary.of(bench, source, comparison.name(), outcomes, pricePrompt, priceCompletion);
        }
    }

    /**
     * The scorer's executor: one connection per scoring thread and database (no statement waits for another), a
     * million rows and {@code maxResultBytes} of encoded result at most (SQLite refuses larger values outright).
     */
    static SqlExecutor executorFor(Benchmark bench, long timeoutMillis, long maxResultBytes, int parallel) {
        DatabaseLocator locator = new DatabaseLocator(List.of(bench.databaseRoot()), List.of());
        return new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults().withTimeoutMillis(timeoutMillis)
                .withMaxRows(1_000_000).withMaxBytes(maxResultBytes).withPoolSizePerDatabase(parallel));
    }

    static int defaultParallelism() {
        return Math.max(2, Runtime.getRuntime().availableProcessors());
    }
}

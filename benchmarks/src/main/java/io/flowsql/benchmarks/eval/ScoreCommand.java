package io.flowsql.benchmarks.eval;

import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.mmsql.AccsFigures;
import io.flowsql.benchmarks.eval.mmsql.AccsScore;
import io.flowsql.benchmarks.eval.rqs.RqsScores;
import io.flowsql.benchmarks.eval.report.EvaluationSummary;
import io.flowsql.benchmarks.eval.rqs.GoldReplies;
import io.flowsql.benchmarks.eval.rqs.RqsRun;
import io.flowsql.benchmarks.eval.score.EfficiencyTimer;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.benchmarks.eval.semantics.MmsqlAccsExec;
import io.flowsql.benchmarks.eval.semantics.Semantics;
import io.flowsql.benchmarks.eval.target.TargetDatabases;
import io.flowsql.benchmarks.eval.target.TargetScore;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.exec.SafeExecutor;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code score}: scores a prediction file against a benchmark with no LLM and writes the reports. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Score a prediction file (BIRD predict_dev.json, one SQL per line, answers JSONL or an MMSQL output file) with no LLM.")
public final class ScoreCommand implements Callable<Integer> {

    @Mixin
    BenchmarkChoice choice;

    @Mixin
    ReportChoice report;

    @Mixin
    TargetChoice target;

    @Option(names = "--limit", defaultValue = "0", description = "Only the first N questions whose database exists here "
            + "(0 = all); a file matched by position still holds one line per question")
    int limit;

    @Option(names = "--predictions", required = true, description = "The prediction file")
    Path predictions;

    @Option(names = "--format", description = "bird, sql-lines, answers or mmsql (default: from the file name and content)")
    String format;

    @Option(names = "--only-runnable", description = "The file holds one line per question whose database exists here "
            + "(e.g. 972 of Spider dev's 1,034), in benchmark order; without it a line-per-question file must hold every question")
    boolean onlyRunnable;

    @Option(names = "--ves-runs", defaultValue = "0", description = "Timed runs per correct question for VES/R-VES (BIRD uses 100; 0 = off)")
    int vesRuns;

    @Option(names = "--timeout-ms", defaultValue = "30000",
            description = "Budget per statement: its parse, execution, result encoding and comparison together")
    long timeoutMillis;

    @Option(names = "--rqs-judge", description = "Dialogue benchmarks: base URL of an OpenAI-compatible LLM judge; adds MMSQL's "
            + "response-quality score (RQS, 0-10) of the replies to unanswerable, ambiguous and improper turns (API key: RQS_API_KEY)")
    String rqsJudge;

    @Option(names = "--rqs-model", defaultValue = "gpt-4o", description = "The judge's model (default ${DEFAULT-VALUE})")
    String rqsModel;

    @Option(names = "--parallel", description = "Questions scored at once on a bounded pool (default: processors, at least 2)")
    int parallel = defaultParallelism();

    @Option(names = "--history", description = "Dialogue benchmarks: the protocol the file was made with, printed beside "
            + "the figures: gold (each turn sent after the gold earlier turns, MMSQL's published protocol) or own (after the "
            + "system's own answers); without it the reports say it was not stated")
    String history;

    @Option(names = "--max-result-bytes", defaultValue = "67108864",
            description = "Bytes of one result as the comparison encodes it (text as UTF-8, blobs as hex); larger values are refused")
    long maxResultBytes;

    @Override
    public Integer call() {
        Benchmark bench = choice.load();
        PredictionFormat fmt = format == null ? PredictionFormat.detect(predictions) : PredictionFormat.parse(format);
        Semantics chosen = report.semanticsFor(choice.benchmark);
        HistoryProtocol protocol = HistoryProtocol.parse(history);
        if (MmsqlAccsExec.ID.equals(chosen.id()) && fmt != PredictionFormat.ANSWERS_JSONL) {
            // MMSQL's script reads everything from the output file itself: replayed on it, not on the test suite's turns.
            AccsFigures figures = AccsScore.run(bench.name(), predictions, bench.databaseRoot(),
                    DataDoors.open(executorFor(bench, timeoutMillis, maxResultBytes, parallel), null), parallel, report.out,
                    protocol.description());
            if (figures.allQa() == 0) {
                return 3;
            }
            if (rqsJudge != null) {
                ourJudgeBeside(bench, fmt, figures);
            }
            return 0;
        }
        List<Prediction> read = aligned(bench, fmt.read(predictions), predictions.toString(), onlyRunnable);
        if (limit > 0) {
            bench = bench.withItems(bench.runnableItems().stream().limit(limit).toList());
        }
        Semantics semantics = report.semanticsFor(choice.benchmark);
        if (!target.onSqlite()) {
            if (vesRuns > 0 || rqsJudge != null) {
                throw new IllegalArgumentException("--ves-runs and --rqs-judge score on SQLite only (not with --target)");
            }
            return onTarget(bench, read, predictions.toString(), semantics, target, timeoutMillis, maxResultBytes, parallel,
                    report, protocol.forBenchmark(bench));
        }
        List<ItemOutcome> outcomes = outcomes(bench, read, executorFor(bench, timeoutMillis, maxResultBytes, parallel), parallel,
                semantics, vesRuns);
        EvaluationSummary summary = EvaluationSummary.of(bench, predictions.toString(), semantics.id(), semantics.description(),
                outcomes, report.pricePrompt, report.priceCompletion).withProtocol(protocol.forBenchmark(bench));
        if (rqsJudge != null) {
            try (SafeExecutor executor = executorFor(bench, timeoutMillis, maxResultBytes, 1)) {
                summary = summary.withRqs(RqsRun.score(rqsJudge, rqsModel, System.getenv("RQS_API_KEY"), bench, read,
                        GoldReplies.load(choice.questionsFile()), outcomes, DataDoors.open(executor, null)));
            }
        }
        return ReportChoice.finish(summary, report.out);
    }

    /**
     * Our judge's RQS beside the file's own: the replies are judged on the test suite's turns (the project's reading,
     * {@code flowsql-mmsql}), as {@code --rqs-judge} does for any file; both figures are printed and written to
     * {@code rqs.json}.
     */
    private void ourJudgeBeside(Benchmark bench, PredictionFormat fmt, AccsFigures figures) {
        List<Prediction> read = aligned(bench, fmt.read(predictions), predictions.toString(), false);
        List<ItemOutcome> outcomes = outcomes(bench, read, executorFor(bench, timeoutMillis, maxResultBytes, parallel), parallel,
                new MmsqlAccsExec(MmsqlAccsExec.OWN_ID), 0);
        RqsScores ours;
        try (SqliteSafeExecutor executor = executorFor(bench, timeoutMillis, maxResultBytes, 1)) {
            ours = RqsRun.score(rqsJudge, rqsModel, System.getenv("RQS_API_KEY"), bench, read,
                    GoldReplies.load(choice.questionsFile()), outcomes, DataDoors.open(executor, null));
        }
        String line = String.format(java.util.Locale.ROOT, "RQS: the file's own %.2f (the paper's GPT-4 judge, averaged as "
                + "accs_eval.py does); our judge (%s) %.2f over %d judged replies, %d judge errors", figures.rqsOverall(),
                ours.judgeModel(), ours.overall(), ours.judged(), ours.errors());
        System.out.println(line);
        try {
            java.nio.file.Files.writeString(report.out.resolve("rqs.json"), String.format(java.util.Locale.ROOT,
                    "{\"file_rqs\": %s, \"judge_rqs\": %s, \"judge_model\": \"%s\", \"judged\": %d, \"judge_errors\": %d}%n",
                    figures.rqsOverall(), ours.overall(), ours.judgeModel().replace("\"", ""), ours.judged(), ours.errors()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Scores on the target engine: its copies of the databases loaded (or taken from the file a running server wrote),
     * predictions run there and gold on SQLite, with the same budgets as on SQLite; writes the reports, prints the EX
     * on the engine and the dialect gap beside it, and writes {@code target-engine.json}.
     */
    static int onTarget(Benchmark bench, List<Prediction> read, String source, Semantics semantics, TargetChoice target,
                        long timeoutMillis, long maxResultBytes, int parallel, ReportChoice report, String protocol) {
        try (TargetDatabases copies = target.open(bench, parallel)) {
            return onTarget(bench, read, source, semantics, copies, timeoutMillis, maxResultBytes, parallel, report, protocol);
        }
    }

    /** As above, on copies already open (a run's, whose job was asked on them). */
    /** @param protocol the dialogue history protocol printed with the figures, or null (no dialogues) */
    static int onTarget(Benchmark bench, List<Prediction> read, String source, Semantics semantics, TargetDatabases copies,
                        long timeoutMillis, long maxResultBytes, int parallel, ReportChoice report, String protocol) {
        TargetScore scored;
        try (SqliteSafeExecutor sqlite = executorFor(bench, timeoutMillis, maxResultBytes, parallel);
                ProgressBar bar = new ProgressBar("score " + bench.name() + " on " + copies.engine().displayName(),
                        bench.runnableItems().size())) {
            scored = TargetScore.score(bench, read, semantics, copies, sqlite, sqlite.config(), parallel, bar::stepTo);
        }
        EvaluationSummary summary = EvaluationSummary.of(bench, source, semantics.id(), semantics.description()
                + "; predictions on " + copies.engine().displayName() + ", gold on SQLite", scored.outcomes(),
                report.pricePrompt, report.priceCompletion).withProtocol(protocol);
        int status = ReportChoice.finish(summary, report.out);
        scored.lines().forEach(System.out::println);
        System.out.println("wrote " + scored.write(report.out));
        return status;
    }

    /**
     * Checks that a file matched by position (one SQL per line, BIRD's indices) fits the benchmark, and maps it onto
     * the questions whose database exists when {@code onlyRunnable}: a file with another count would be scored
     * against the wrong questions.
     */
    static List<Prediction> aligned(Benchmark bench, List<Prediction> predictions, String source, boolean onlyRunnable) {
        boolean byPosition = !predictions.isEmpty() && predictions.stream().allMatch(p -> p.key() == null);
        if (!byPosition) {
            if (onlyRunnable) {
                throw new IllegalArgumentException("--only-runnable applies to files matched by position (one SQL per line); "
                        + source + " names its questions");
            }
            return predictions;
        }
        List<BenchmarkItem> runnable = bench.runnableItems();
        int expected = onlyRunnable ? runnable.size() : bench.items().size();
        if (predictions.size() != expected) {
            throw new IllegalArgumentException(String.format(
                    "%s has %d predictions but %s has %d questions (%d of them with their database here)%s; a file of another "
                            + "length would be matched against the wrong questions", source, predictions.size(), bench.name(),
                    bench.items().size(), runnable.size(), onlyRunnable ? " and --only-runnable expects "
                            + runnable.size() : predictions.size() == runnable.size()
                            ? "; if the file holds only the questions whose database exists, add --only-runnable" : ""));
        }
        if (!onlyRunnable) {
            return predictions;
        }
        List<Prediction> out = new ArrayList<>(predictions.size());
        for (Prediction p : predictions) {
            BenchmarkItem item = runnable.get(p.ordinal());
            out.add(new Prediction(null, item.ordinal(), p.sql(), p.questionType(), p.stages(), p.readingSqls(), p.reply(),
                    p.unreadable()));
        }
        return out;
    }

    /** Scores with a progress bar and builds the summary; shared by {@code score} and {@code run}. */
    static EvaluationSummary score(Benchmark bench, List<Prediction> predictions, String source, SafeExecutor executor,
                                   int parallel, Semantics semantics, int vesRuns, double pricePrompt,
                                   double priceCompletion) {
        return EvaluationSummary.of(bench, source, semantics.id(), semantics.description(),
                outcomes(bench, predictions, executor, parallel, semantics, vesRuns), pricePrompt, priceCompletion);
    }

    /** Scores every runnable question on a bounded pool with a progress bar; closes the executor. */
    static List<ItemOutcome> outcomes(Benchmark bench, List<Prediction> predictions, SafeExecutor executor, int parallel,
                                      Semantics semantics, int vesRuns) {
        try (executor; ProgressBar bar = new ProgressBar("score " + bench.name(), bench.runnableItems().size())) {
            DataDoors doors = DataDoors.open(executor, null);
            Scorer scorer = new Scorer(doors, semantics, vesRuns > 0 ? new EfficiencyTimer(doors, vesRuns) : null, parallel);
            return scorer.score(bench, predictions, bar::stepTo);
        }
    }

    /**
     * The scorer's executor: one connection per scoring thread and database (no statement waits for another), a
     * million rows and {@code maxResultBytes} of encoded result at most (SQLite refuses larger values outright).
     */
    static SqliteSafeExecutor executorFor(Benchmark bench, long timeoutMillis, long maxResultBytes, int parallel) {
        DatabaseLocator locator = new DatabaseLocator(List.of(bench.databaseRoot()), List.of());
        return new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults().withTimeoutMillis(timeoutMillis)
                .withMaxRows(1_000_000).withMaxBytes(maxResultBytes).withPoolSizePerDatabase(parallel));
    }

    static int defaultParallelism() {
        return Math.max(2, Runtime.getRuntime().availableProcessors());
    }
}

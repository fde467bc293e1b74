package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.report.EvaluationSummary;
import io.flowsql.benchmarks.eval.run.EvalRunId;
import io.flowsql.benchmarks.eval.run.GoldHistory;
import io.flowsql.benchmarks.eval.run.KafkaBenchmarkRunner;
import io.flowsql.benchmarks.eval.run.LocalStack;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.target.TargetDatabases;
import io.flowsql.job.JobOptions;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.compare.ComparisonMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code run}: sends a benchmark's questions through the streaming job (a running one, or with
 * {@code --local} a broker, job and simulator started here), collects answers into a resumable JSONL
 * file, then scores them and writes the reports.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a benchmark through the FlowSQL job over Kafka, collect answers (resumable) and report.")
public final class RunCommand implements Callable<Integer> {

    @Mixin
    BenchmarkChoice choice;

    @Mixin
    ReportChoice report;

    @Mixin
    TargetChoice target;

    @Option(names = "--limit", defaultValue = "0", description = "Only the first N runnable questions (0 = all)")
    int limit;

    @Option(names = "--answers", description = "Answers JSONL (appended; resumes); default <--out>/answers.jsonl, so runs "
            + "with different --out folders never share (or refuse) one answers file")
    Path answers;

    @Option(names = "--local", description = "Start the broker, the job on a local MiniCluster and (without LLM_BASE_URL) the simulator")
    boolean local;

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka of a running job")
    String bootstrapServers;

    @Option(names = "--questions-topic", defaultValue = "questions")
    String questionsTopic;

    @Option(names = "--answers-topic", defaultValue = "answers")
    String answersTopic;

    @Option(names = "--strategy", description = "Strategy preset sent with each question (default: the job's)")
    String strategy;

    @Option(names = "--parallelism", defaultValue = "2", description = "Job parallelism in --local mode")
    int parallelism;

    @Option(names = "--simulated-error-rate", defaultValue = "0",
            description = "--local without LLM_BASE_URL: share of the simulated oracle's SQL answers it corrupts "
                    + "(wrong column, dropped condition, wrong aggregate, syntax error), so refinement and voting have work")
    double simulatedErrorRate;

    @Option(names = "--simulated-seed", defaultValue = "42", description = "Seed of the simulated oracle's error injection")
    long simulatedSeed;

    @Option(names = "--llm-cache", description = "--local: the job's LLM response cache folder (llm.cache-dir); a re-run "
            + "replays recorded answers and sends no request for them (the repair memory then learns nothing during "
            + "the run, so the replayed prompts are exactly the recorded ones)")
    Path llmCache;

    @Option(names = {"-D", "--job-option"}, description = "--local: one more job option, key=value (docs/OPERATIONS.md); repeatable")
    Map<String, String> jobOptions = new LinkedHashMap<>();

    @Option(names = "--history", defaultValue = "own", description = "Dialogue protocol: own (each turn sees the system's own "
            + "earlier answers, as a user lives with it) or gold (each turn is sent with the gold questions, types and SQL of the "
            + "turns before it, MMSQL's published protocol); default ${DEFAULT-VALUE}")
    String history;

    @Option(names = "--deadline", defaultValue = "PT2H", description = "Stop waiting for answers after this (ISO-8601)")
    Duration deadline;

    @Option(names = "--run-id", description = "The run's id, part of every request and dialogue id (default: a fresh one, "
            + "printed at start). Resume an interrupted run by passing its run id and the same --answers file")
    String runId;

    @Override
    public Integer call() throws Exception {
        Benchmark bench = choice.load();
        GoldHistory gold = HistoryProtocol.parse(history) == HistoryProtocol.GOLD ? new GoldHistory(bench) : null;
        if (limit > 0) {
            bench = bench.withItems(bench.runnableItems().stream().limit(limit).toList());
        }
        if (!target.onSqlite() && !local && target.targetDatabases == null) {
            throw new IllegalArgumentException("--target " + target.target + " with a running job needs --target-databases: "
                    + "the databases.<db>.* options the job was started with (e.g. work/postgres/databases.properties)");
        }
        try (TargetDatabases copies = target.onSqlite() ? null
                : target.open(bench, Math.max(parallelism, ScoreCommand.defaultParallelism()))) {
            return runAndScore(bench, gold, copies);
        }
    }

    /** The answers file: {@code --answers}, else {@code answers.jsonl} in the report's folder. */
    Path answersFile() {
        return answers != null ? answers : report.out.resolve("answers.jsonl");
    }

    private int runAndScore(Benchmark bench, GoldHistory gold, TargetDatabases copies) throws Exception {
        Path answers = answersFile();
        String run = EvalRunId.choose(runId, answers);
        System.out.printf("run id: %s (resume with --run-id %s --answers %s)%n", run, run, answers);
        if (copies != null) {
            System.out.printf("asked on %s: %d databases declared under their benchmark ids%n",
                    copies.engine().displayName(), copies.declared().size());
        }
        long started = System.nanoTime();
        KafkaBenchmarkRunner.RunResult result;
        if (local) {
            String llm = System.getenv("LLM_BASE_URL");
            String model = System.getenv().getOrDefault("LLM_MODEL", "simulated-oracle");
            Path oracleFile = choice.questionsFile();
            Map<String, String> options = localJobOptions();
            if (copies != null) {
                options.putAll(copies.jobOptions());
            }
            try (LocalStack stack = LocalStack.start(choice.data.toAbsolutePath(), bench.databaseRoot().toAbsolutePath(), llm,
                    model, List.of(oracleFile), SqlErrorInjector.uniform(simulatedErrorRate, simulatedSeed), parallelism,
                    options)) {
                result = runner(stack.bootstrapServers(), run, gold).run(bench, answers, deadline);
                if (stack.simulated()) {
                    System.out.printf("simulated LLM requests: %d%n", stack.simulatedLlmRequests());
                }
            }
        } else {
            result = runner(bootstrapServers, run, gold).run(bench, answers, deadline);
        }
        int unanswered = result.unanswered();
        System.out.printf("answers: %s (%d sent, %d recovered from the answers topic, %d unanswered), %.1f s%n", answers,
                result.sent(), result.recoveredFromTopic(), unanswered, (System.nanoTime() - started) / 1e9);
        int status = scoreAnswers(bench, copies);
        return status != 0 ? status : unanswered == 0 ? 0 : 2;
    }

    /**
     * Scores the run's answers file and writes the reports, which print the dialogue history protocol beside the
     * figures: on the target engine's copies the job was asked on, else on SQLite.
     */
    int scoreAnswers(Benchmark bench, TargetDatabases copies) {
        Path answers = answersFile();
        if (copies != null) {
            return ScoreCommand.onTarget(bench, PredictionFormat.ANSWERS_JSONL.read(answers), answers.toString(),
                    report.semanticsFor(choice.benchmark), copies, 30_000, 64L << 20, ScoreCommand.defaultParallelism(), report,
                    HistoryProtocol.parse(history).forBenchmark(bench));
        }
        EvaluationSummary summary = ScoreCommand.score(bench, PredictionFormat.ANSWERS_JSONL.read(answers),
                answers.toString(), ScoreCommand.executorFor(bench, 30_000, 64L << 20, ScoreCommand.defaultParallelism()),
                ScoreCommand.defaultParallelism(), report.semanticsFor(choice.benchmark), 0, report.pricePrompt,
                report.priceCompletion).withProtocol(HistoryProtocol.parse(history).description());
        return ReportChoice.finish(summary, report.out);
    }

    private Map<String, String> localJobOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        if (llmCache != null) {
            options.put(JobOptions.LLM_CACHE_DIR.key(), llmCache.toAbsolutePath().toString());
            options.put(JobOptions.AGENT_REPAIR_MEMORY_LEARN.key(), "false");
        }
        options.putAll(jobOptions);
        System.out.println(FewShotDefault.apply(choice.benchmark, choice.data, options));
        return options;
    }

    private KafkaBenchmarkRunner runner(String servers, String run, GoldHistory gold) {
        return new KafkaBenchmarkRunner(servers, questionsTopic, answersTopic, strategy, run, gold);
    }
}

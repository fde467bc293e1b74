package io.flowsql.benchmarks.sql;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.engine.EngineRuntime;
import io.flowsql.engine.StageParts;
import io.flowsql.engine.StageRegistry;
import io.flowsql.job.journal.KafkaJournalSource;
import io.flowsql.journal.JournalScope;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.exec.StatementThreads;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Do model replies keep flowing while SQL runs? The engine as the job builds it, with the stage journal on a real
 * (in-process) Kafka broker, answers many questions at once with {@code mmsql.refine}: one model call, then the reply's
 * SQL, a recursive CTE on a real Spider database calibrated to take about a second. Meanwhile a probe asks the model
 * (journaled, as every stage call is) every 100 ms and times each reply until it is usable: if replies wait behind SQL,
 * the probes show it. Two runs: "chained" runs SQL where the reply completes, as stages did before issue 30 (with the
 * journal on, on the one {@code stage-journal-acks} thread); "offloaded" is the engine as it is now (replies resume on
 * the callback pool, SQL goes back to the work pool). Prints per run: questions done and their wall time, probe reply
 * latency p50/p99/max, the longest gap between probe completions, and the threads the statements ran on.
 *
 * <p>Usage: SlowSqlRepliesBenchmark [questions (default 16)] [sql-millis (default 1000)] [shared-data (default
 * ../shared/data)]; deploy/bench.sh slow-sql.
 */
public final class SlowSqlRepliesBenchmark {
    /** MMSQL's refine stage, as the registry names it (the stage whose SQL this benchmark slows down). */
    private static final String MMSQL_REFINE = StageRegistry.stagesOf(StageRegistry.MMSQL).stream()
            .map(io.flowsql.engine.StageDeclaration::name).filter(n -> n.endsWith(".refine")).findFirst().orElseThrow();

    private static final String DB = "concert_singer";
    private static final String PROBE_TASK = "bench.probe";
    private static final long PROBE_EVERY_MS = 100;
    private static final long SIMULATED_REPLY_MS = 50;

    private SlowSqlRepliesBenchmark() {}

    public static void main(String[] args) throws Exception {
        int questions = SmallInputs.cap(args.length > 0 ? Integer.parseInt(args[0]) : 16, 4);
        long sqlMillis = SmallInputs.cap(args.length > 1 ? Integer.parseInt(args[1]) : 1000, 300);
        SmallInputs.announce(questions + " questions, statements of " + sqlMillis + " ms");
        Path sharedData = Path.of(args.length > 2 ? args[2] : "../shared/data").toAbsolutePath();
        DatabaseLocator databases = DatabaseLocator.forSharedData(sharedData);
        String slowSql = calibrate(databases, sqlMillis);
        Path kafkaDir = Files.createTempDirectory("slow-sql-bench-kafka");
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(kafkaDir);
             SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0).recordRequests(false)
                     .latency(LatencyModel.fixed(SIMULATED_REPLY_MS))
                     .responder("mmsql.refine.generate", (request, context) -> Optional.of(List.of(
                             "#reason: count.\n```sql\n" + slowSql + "\n```")))
                     .responder(PROBE_TASK, (request, context) -> Optional.of(List.of("```sql\nSELECT 1\n```")))
                     .build());
             EngineLease lease = EngineFactory.shared(engineConfig(llm.baseUrl(), databases, broker))) {
            EngineRuntime runtime = lease.runtime();
            System.out.printf("Slow SQL and model replies: %d questions at once, each one model call (simulated, %d ms) "
                    + "then one statement of ~%d ms; journal on (Kafka, in-process); a journaled probe call every %d ms; "
                    + "%d cores%n", questions, SIMULATED_REPLY_MS, sqlMillis, PROBE_EVERY_MS,
                    Runtime.getRuntime().availableProcessors());
            System.out.printf("%-10s | %-18s | %-33s | %-17s | %s%n", "mode", "questions, wall s",
                    "probe reply p50 / p99 / max ms", "max probe gap ms", "statements ran on");
            // "chained": the stage built as before issue 30: replies resume where they complete, SQL right there
            StageParts chained = new StageParts(lease.engine(), AgentSettings.defaults(),
                    new SchemaContext(lease.engine().room(AgentSettings.defaults().access), SchemaViews.over(lease.engine().sql()),
                            new HistoryRenderer()), runtime.candidateRunner(), runtime.journal(), Runnable::run);
            NamedStage before = StageRegistry.build(StageRegistry.get(MMSQL_REFINE), chained);
            run("chained", questions, runtime, new AgentCall(lease.engine().llm(), runtime.journal()),
                    ctx -> CompletableFuture.supplyAsync(() -> before.apply(ctx), runtime.work()).thenCompose(f -> f));
            NamedStage now = runtime.stage(MMSQL_REFINE);
            run("offloaded", questions, runtime,
                    new AgentCall(lease.engine().llm(), runtime.journal(), runtime.callbacks()),
                    ctx -> now.applyOn(runtime.work(), ctx));
        }
    }

    private static EngineConfig engineConfig(String llmBaseUrl, DatabaseLocator databases, LocalKafkaBroker broker) {
        return EngineConfig.of(LlmClientConfig.builder(llmBaseUrl).defaultModel("bench").maxConcurrency(256)
                        .callTimeout(Duration.ofSeconds(120)).totalBudget(Duration.ofSeconds(300)).build(),
                databases, StageRegistry.MMSQL)
                .withJournal(new KafkaJournalSource(broker.bootstrapServers(), "bench-journal", Duration.ofHours(1)));
    }

    private static void run(String mode, int questions, EngineRuntime runtime, AgentCall probeCall,
                            Function<RequestContext, CompletableFuture<RequestContext>> stage) throws Exception {
        StatementThreads.forgetKinds();
        long start = System.nanoTime();
        List<CompletableFuture<RequestContext>> all = new ArrayList<>();
        for (int i = 0; i < questions; i++) {
            RequestContext ctx = new RequestContext();
            ctx.requestId = mode + "-q" + i;
            ctx.dbId = DB;
            ctx.question = "How many numbers are there up to the limit? (" + i + ")";
            ctx.strategy = StageRegistry.MMSQL;
            all.add(stage.apply(ctx));
        }
        CompletableFuture<Void> done = CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
        LatencyStats probes = new LatencyStats();
        List<Long> completions = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<?>> pending = new ArrayList<>();
        int probe = 0;
        while (!done.isDone()) {
            long sent = System.nanoTime();
            StageTrace trace = new StageTrace(PROBE_TASK);
            trace.journalUnder(new JournalScope(mode + "-probe-" + probe++, PROBE_TASK));
            pending.add(probeCall.ask(probeRequest(), ModelOutput::sql, trace).whenComplete((sql, error) -> {
                long now = System.nanoTime();
                synchronized (probes) {
                    probes.add(now - sent);
                }
                completions.add(now);
            }));
            Thread.sleep(PROBE_EVERY_MS);
        }
        long wall = System.nanoTime() - start;
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        long answered = all.stream().map(CompletableFuture::join).filter(c -> c.error == null).count();
        System.out.printf("%-10s | %3d of %3d, %6.1f | %9.0f / %9.0f / %9.0f   | %17.0f | %s%n", mode, answered,
                questions, wall / 1e9, probes.percentileMillis(50), probes.percentileMillis(99),
                probes.percentileMillis(100), maxGapMillis(completions, start), StatementThreads.kindsSeen());
    }

    private static double maxGapMillis(List<Long> completions, long start) {
        List<Long> sorted = new ArrayList<>(completions);
        Collections.sort(sorted);
        long previous = start;
        long max = 0;
        for (long t : sorted) {
            max = Math.max(max, t - previous);
            previous = t;
        }
        return max / 1e6;
    }

    private static ChatRequest probeRequest() {
        return ChatRequest.of(PROBE_TASK, List.of(ChatMessage.system("### Task: " + PROBE_TASK + "\nAnswer briefly."),
                ChatMessage.user("Database: " + DB + "\nQuestion: one?")));
    }

    /** A recursive count taking about {@code millis} on this machine now (a real SQLite statement, CPU-bound). */
    private static String calibrate(DatabaseLocator databases, long millis) {
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(databases,
                SqlExecutorConfig.defaults().withTimeoutMillis(60_000))) {
            long n = 200_000;
            for (int i = 0; i < 4; i++) {
                ExecutionResult result = executor.execute(DB, count(n));
                long took = Math.max(1, result.elapsedMicros() / 1000);
                if (!result.ok()) {
                    throw new IllegalStateException("calibration query failed: " + result.error());
                }
                n = Math.max(10_000, n * millis / took);
                if (Math.abs(took - millis) < millis / 10) {
                    break;
                }
            }
            return count(n);
        }
    }

    private static String count(long n) {
        return "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < " + n + ") SELECT count(*) FROM n";
    }
}

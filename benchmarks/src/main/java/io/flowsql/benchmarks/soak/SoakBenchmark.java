package io.flowsql.benchmarks.soak;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.devstack.FreePorts;
import io.flowsql.devstack.LocalKafkaCluster;
import io.flowsql.devstack.TcpFaultProxy;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.config.llm.LlmOptions;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak: questions at a steady rate across presets and engines (SQLite, PostgreSQL, DuckDB, MariaDB where mariadbd
 * is installed) through the real job
 * (a MiniCluster of two TaskManagers in this JVM, exactly-once sinks) on a three-node Kafka cluster and the simulated
 * LLM or llama.cpp's server ({@code --llm}, behind a {@link TcpFaultProxy}); faults at random moments ({@link SoakFaults}: a broker killed, a rolling restart
 * of all brokers, the model server, PostgreSQL and MariaDB stopped and started, PostgreSQL's connections dropped, a TaskManager
 * terminated, the link to the model server stalled and slow); figures of every process and of the checkpoints every few
 * minutes, and one summary line.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Steady questions, random faults, resource figures over time (deploy/bench.sh soak --minutes N).")
public final class SoakBenchmark implements Callable<Integer> {
    @Option(names = "--minutes", description = "length of the run (default ${DEFAULT-VALUE})")
    int minutes = 5;
    @Option(names = "--rate", description = "questions per second (default 2; 0.25 with --llm llama-server)")
    Double rate;
    @Option(names = "--presets", split = ",", description = "presets the questions cycle through (default ${DEFAULT-VALUE})")
    List<String> presets = List.of("opensearch", "mag-sql", "sqlfix", "mmsql", "full");
    @Option(names = "--sample-minutes", description = "minutes between resource figures (default ${DEFAULT-VALUE})")
    int sampleMinutes = 1;
    @Option(names = "--outage-seconds", description = "how long a killed broker stays down (default ${DEFAULT-VALUE})")
    int outageSeconds = 10;
    @Option(names = "--llm-outage-seconds", description = "how long the stopped model server stays down (default ${DEFAULT-VALUE})")
    int llmOutageSeconds = 60;
    @Option(names = "--pg-outage-seconds", description = "how long the stopped PostgreSQL stays down (default ${DEFAULT-VALUE})")
    int pgOutageSeconds = 30;
    @Option(names = "--stall-seconds", description = "how long the model server's link stalls, and then is slow (default ${DEFAULT-VALUE})")
    int stallSeconds = 20;
    @Option(names = "--llm-request-timeout-seconds", description = "the job's llm.request-timeout, so that calls held"
            + " by a stall give up and retry (default 10; 30 with --llm llama-server, whose slots queue on a shared CPU)")
    Integer llmRequestTimeoutSeconds;
    @Option(names = "--llm", description = "the model server: simulator (the project's, oracle on Spider dev) or"
            + " llama-server (llama.cpp's own on the tiny random-weight model: deploy/llama-server-build.sh; its answers"
            + " mostly fail, none may be lost or doubled) (default ${DEFAULT-VALUE})")
    String llm = "simulator";
    @Option(names = "--seed", description = "seed of the fault schedule (default ${DEFAULT-VALUE})")
    long seed = 42;
    @Option(names = "--cluster", description = "where the job runs: mini (a MiniCluster in this JVM) or standalone"
            + " (deploy/flink-cluster-start.sh with ZooKeeper HA, adds the JobManager kill; needs the shaded job jar)"
            + " (default ${DEFAULT-VALUE})")
    String cluster = "mini";
    @Option(names = "--mariadb", description = "MariaDB as a fourth engine with its restart fault: auto (if mariadbd is"
            + " installed), on (fail without it) or off (default ${DEFAULT-VALUE})")
    String mariadb = "auto";
    @Option(names = "--shared-data", description = "benchmark data folder (default ${DEFAULT-VALUE})")
    Path sharedData = Path.of("../shared/data");

    /** The one fault of a run on small inputs (FLOWSQL_BENCH_SMALL). */
    private static final String SMALL_FAULT = "broker-kill";

    private volatile String phase = "start";

    public static void main(String[] args) {
        System.exit(new CommandLine(new SoakBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        boolean llama = "llama-server".equals(llm);
        if (!llama && !"simulator".equals(llm)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--llm is simulator or llama-server, not " + llm);
        }
        rate = rate != null ? rate : llama ? 0.25 : 2.0;
        llmRequestTimeoutSeconds = llmRequestTimeoutSeconds != null ? llmRequestTimeoutSeconds : llama ? 30 : 10;
        boolean small = SmallInputs.on();
        if (small) {
            minutes = SmallInputs.cap(minutes, 1);
            presets = SmallInputs.first(presets);
            outageSeconds = SmallInputs.cap(outageSeconds, 3);
            llmOutageSeconds = SmallInputs.cap(llmOutageSeconds, 5);
            pgOutageSeconds = SmallInputs.cap(pgOutageSeconds, 5);
            stallSeconds = SmallInputs.cap(stallSeconds, 3);
            SmallInputs.announce(minutes + " min, presets " + presets + ", one fault (" + SMALL_FAULT + " at "
                    + FaultSchedule.QUIET_START_SECONDS + " s), outages of a few seconds");
        }
        long runNanos = TimeUnit.MINUTES.toNanos(minutes);
        sharedData = sharedData.toAbsolutePath().normalize(); // the standalone cluster's processes have their own working folder
        if (!List.of("mini", "standalone").contains(cluster)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--cluster is mini or standalone, not " + cluster);
        }
        boolean withMaria = withMaria();
        List<String> kinds = SoakFaults.kinds("standalone".equals(cluster), withMaria);
        System.out.printf("soak: %d min, %.2f questions/s, %s cluster, model server %s, presets %s on sqlite, postgresql (%s), duckdb (%s)"
                        + " and mariadb (%s), faults %s (broker down %d s, model server %d s, PostgreSQL and MariaDB %d s,"
                        + " model link stalled %d s then slow %d s), %d cores shared%n", minutes, rate, cluster, llm, presets,
                SoakDatabases.POSTGRES_DB, SoakDatabases.DUCKDB_DB, withMaria ? SoakDatabases.MARIADB_DB : "none",
                kinds, outageSeconds, llmOutageSeconds, pgOutageSeconds, stallSeconds, stallSeconds,
                Runtime.getRuntime().availableProcessors());
        SoakLedger ledger = new SoakLedger();
        Random random = new Random(seed);
        List<String> faults = new ArrayList<>();
        List<ProcessFigures> first;
        List<ProcessFigures> last;
        Path work = Files.createTempDirectory("flowsql-soak-");
        try (LocalKafkaCluster kafka = LocalKafkaCluster.start(work.resolve("kafka"));
                SoakModelServer model = llama ? LlamaModelServer.start(work.resolve("llama"))
                        : SimulatedModelServer.start(sharedData, FreePorts.next());
                TcpFaultProxy llmLink = TcpFaultProxy.start(model.port());
                SoakDatabases databases = SoakDatabases.start(sharedData, work, FreePorts.next(), withMaria);
                SoakCluster flink = "standalone".equals(cluster) ? SoakStandalone.start(projectDir(), work.resolve("flink"))
                        : SoakFlink.start()) {
            kafka.createTopics(new TopicSpec("questions", 2), new TopicSpec("answers", 2), new TopicSpec("dead-letters", 1));
            flink.submit(jobConfig(kafka.bootstrapServers(), "http://127.0.0.1:" + llmLink.port() + "/v1",
                    model.jobOptions(), databases.jobOptions(), work.resolve("checkpoints")), "flowsql-soak");
            SoakFaults injector = new SoakFaults(kafka, model, llmLink, databases, flink,
                    new SoakFaults.Outages(outageSeconds, llmOutageSeconds, pgOutageSeconds, stallSeconds));
            ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
            try (FailoverWatch failovers = new FailoverWatch(flink::lastFailoverMillis, 250);
                    SoakTraffic traffic = new SoakTraffic(kafka.bootstrapServers(), ledger)) {
                // enough for a run twice its length plus start-up: faults run to their end, so a short run under load
                // lasts longer than planned (a 5-minute one on the standalone cluster took 12), and questions must
                // still flow through the last faults; the sender stops at the run's end anyway
                List<QuestionEvent> questions = SoakQuestions.mix(SoakQuestions.pools(sharedData, SoakDatabases.byEngine(withMaria), seed),
                        presets, (int) Math.ceil(rate * (2 * TimeUnit.NANOSECONDS.toSeconds(runNanos) + 900)));
                AtomicInteger next = new AtomicInteger();
                sender.scheduleAtFixedRate(() -> {
                    int i = next.getAndIncrement();
                    if (i < questions.size()) {
                        traffic.send(questions.get(i), phase);
                    }
                }, 0, (long) (1_000_000 / rate), TimeUnit.MICROSECONDS);

                // the run's clock, the fault schedule and the resource baseline start with the first answer: job start-up
                // (threads, classes, pools) is not growth
                long warmDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
                while (ledger.answered() == 0 && System.nanoTime() < warmDeadline) {
                    Thread.sleep(200);
                }
                phase = "steady";
                first = figures(kafka, flink, model);
                print(first, flink);
                long start = System.nanoTime();
                long nextSample = start + TimeUnit.MINUTES.toNanos(sampleMinutes);
                List<FaultRecord> faultTimes = new ArrayList<>();
                FaultSchedule schedule = small ? FaultSchedule.one(SMALL_FAULT) : FaultSchedule.plan(kinds, minutes, seed);
                for (FaultSchedule.Planned planned : schedule.faults()) {
                    nextSample = sampleUntil(start + (long) (planned.atSeconds() * 1e9), nextSample, kafka, flink, model);
                    phase = planned.kind();
                    long faultStart = System.nanoTime();
                    long faultStartMillis = System.currentTimeMillis();
                    String what = injector.inject(planned.kind(), random);
                    long faultEnd = System.nanoTime();
                    faultTimes.add(new FaultRecord(faultStart, faultEnd, faultStartMillis, System.currentTimeMillis()));
                    faults.add(planned.kind() + " (" + what + ", " + TimeUnit.NANOSECONDS.toMillis(faultEnd - faultStart) + " ms)");
                    System.out.printf("%5.0f s fault %d: %s%n", (faultEnd - start) / 1e9, faults.size(), faults.get(faults.size() - 1));
                    phase = planned.kind() + "-after";
                    nextSample = sampleUntil(faultEnd + TimeUnit.SECONDS.toNanos(20), nextSample, kafka, flink, model);
                    phase = "steady";
                }
                sampleUntil(start + runNanos, nextSample, kafka, flink, model);
                sender.shutdownNow();
                phase = "drain";
                traffic.awaitAnswers(ledger.sent(), TimeUnit.MINUTES.toNanos(3));
                System.out.printf("run took %.1f min from the first answer (faults run to their end), then the drain%n",
                        (System.nanoTime() - start) / 60e9);
                System.out.println("per fault: detection (fault start → the job's first failover, if it failed over),"
                        + " recovery (fault start → first answer to a question sent after the start; fault end → first"
                        + " answer to a question sent after the end):");
                for (int f = 0; f < faultTimes.size(); f++) {
                    FaultRecord times = faultTimes.get(f);
                    long nextStartMillis = f + 1 < faultTimes.size() ? faultTimes.get(f + 1).startMillis() : Long.MAX_VALUE;
                    System.out.printf("  %s: %s; recovery %s from start, %s from end%n", faults.get(f),
                            times.detection(failovers.firstIn(times.startMillis(), nextStartMillis),
                                    failovers.countIn(times.startMillis(), nextStartMillis)),
                            times.since(times.startNanos(), ledger.firstAnswerToQuestionSentAfter(times.startNanos())),
                            times.since(times.endNanos(), ledger.firstAnswerToQuestionSentAfter(times.endNanos())));
                }
                last = figures(kafka, flink, model);
                System.out.printf("dead letters: %d; answer statuses %s%n", traffic.deadLetters(), ledger.statuses());
                ledger.latencyLines().forEach(l -> System.out.println("latency " + l));
                print(last, flink);
                System.out.printf("summary: minutes=%d sent=%d answered=%d dead_lettered=%d doubled=%d lost=%d faults=%d"
                                + " heap_growth_mb=%d threads_growth=%d fds_growth=%d%n", minutes, ledger.sent(),
                        ledger.answered(), traffic.deadLetters(), ledger.doubled(), ledger.lost(), faults.size(),
                        last.get(0).heapMb() - first.get(0).heapMb(), total(last, true) - total(first, true),
                        total(last, false) - total(first, false));
            } finally {
                sender.shutdownNow();
            }
        }
        return 0;
    }

    /** Whether the soak has MariaDB: {@code --mariadb} auto, on or off; auto says so when it runs without. */
    private boolean withMaria() {
        String unavailable = SoakDatabases.mariaUnavailable();
        switch (mariadb) {
            case "off":
                return false;
            case "on":
                if (unavailable != null) {
                    throw new CommandLine.ParameterException(new CommandLine(this), "--mariadb on, but " + unavailable);
                }
                return true;
            case "auto":
                if (unavailable != null) {
                    System.out.println("soak: running without MariaDB: " + unavailable);
                }
                return unavailable == null;
            default:
                throw new CommandLine.ParameterException(new CommandLine(this), "--mariadb is auto, on or off, not " + mariadb);
        }
    }

    private JobConfig jobConfig(String bootstrapServers, String llmBaseUrl, Map<String, String> modelServer,
            Map<String, String> databases, Path checkpoints) {
        Map<String, String> options = new LinkedHashMap<>(databases);
        options.putAll(modelServer);
        options.put(JobOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        options.put(JobOptions.SHARED_DATA.key(), sharedData.toString());
        options.put(JobOptions.LLM_BASE_URL.key(), llmBaseUrl);
        options.put(LlmOptions.REQUEST_TIMEOUT.key(), llmRequestTimeoutSeconds + "s");
        options.put(JobOptions.CHECKPOINT_INTERVAL.key(), "1s");
        options.put(JobOptions.CHECKPOINT_DIR.key(), checkpoints.toUri().toString());
        options.put(JobOptions.TRANSACTION_TIMEOUT.key(), "60s");
        options.put(JobOptions.PARALLELISM.key(), "2");
        return JobConfig.of(options);
    }

    private long sampleUntil(long untilNanos, long nextSample, LocalKafkaCluster kafka, SoakCluster flink,
            SoakModelServer model)
            throws InterruptedException {
        while (System.nanoTime() < untilNanos) {
            if (System.nanoTime() >= nextSample) {
                print(figures(kafka, flink, model), flink);
                nextSample = System.nanoTime() + TimeUnit.MINUTES.toNanos(sampleMinutes);
            }
            Thread.sleep(Math.max(1, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(untilNanos - System.nanoTime()))));
        }
        return nextSample;
    }

    private static List<ProcessFigures> figures(LocalKafkaCluster kafka, SoakCluster flink, SoakModelServer model) {
        List<ProcessFigures> out = new ArrayList<>(List.of(ProcessFigures.ofThisJvm()));
        out.addAll(flink.processes());
        out.addAll(model.processes());
        for (int n = 1; n <= LocalKafkaCluster.SIZE; n++) {
            if (kafka.isAlive(n)) {
                out.add(ProcessFigures.ofProcess("broker-" + n, kafka.pid(n)));
            }
        }
        return out;
    }

    private static void print(List<ProcessFigures> figures, SoakCluster flink) {
        System.out.printf("%tT resources:%n", System.currentTimeMillis());
        figures.forEach(f -> System.out.println("  " + f.line()));
        System.out.println("  " + flink.checkpointLine());
    }

    private static Path projectDir() {
        return Path.of(System.getProperty("flowsql.project.dir", ".")).toAbsolutePath().normalize();
    }

    private static int total(List<ProcessFigures> figures, boolean threads) {
        return figures.stream().mapToInt(f -> threads ? f.threads() : f.fds()).sum();
    }
}

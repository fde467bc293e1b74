package io.flowsql.benchmarks.throughput;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.benchmarks.TempFolders;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.EngineWiring;
import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.TokenCounts;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateChangelogOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * How close the streaming job comes to what the LLM server allows, run with the job's own defaults (only
 * {@code llm.server-slots} is set, to the simulator's slots, plus what {@code -D} overrides, all printed): per server
 * size S and preset, questions through the real job (in-process broker, local MiniCluster, exactly-once answers)
 * against a simulated LLM with latency L and S slots, after a warm-up that lasts until the rate is stable; then the
 * same rate's share of the ideal S / (L × calls per question), a paced run at a fraction of the measured maximum with
 * p50/p95/p99 over each question's own LLM floor (the critical path of its chat calls, {@link LlmFloor}) and over the
 * one-at-a-time median, the process's CPU per question split into job, simulator, broker, benchmark client, JIT, GC
 * (and the JVM's own JIT and GC times), tokens and cached share per question, and the same stages one question at a
 * time by the plain Pipeline. Each preset runs in a fresh job, in the order printed, and ends with a {@code summary:}
 * line a script can read.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true,
        description = "Streaming job vs the ideal and vs one at a time, with the job's defaults (deploy/bench.sh throughput).")
public final class ThroughputBenchmark implements Callable<Integer> {
    @Option(names = "--presets", split = ",", description = "presets to run (default ${DEFAULT-VALUE})")
    List<String> presets = List.of("opensearch");
    @Option(names = "--slots", split = ",", description = "server slots S to run (default ${DEFAULT-VALUE})")
    List<Integer> slots = List.of(8);
    @Option(names = "--latency-ms", description = "simulated LLM latency L per call (default ${DEFAULT-VALUE})")
    long latencyMillis = 200;
    @Option(names = "--questions", description = "questions of the measured run, all sent at once (default ${DEFAULT-VALUE})")
    int questions = 400;
    @Option(names = "--warmup-max", description = "warm-up stops once its batches asked every usable question, three batches' rates agree within 10 %% and the JIT compiled <= 100 ms/s in the last batch, or after this many questions (default ${DEFAULT-VALUE})")
    int warmupMax = 8000;
    @Option(names = "--one-at-a-time", description = "questions of the one-at-a-time run (default ${DEFAULT-VALUE})")
    int oneAtATime = 40;
    @Option(names = "--paced", description = "paced run at this share of the measured maximum rate (the sustained run's, or the burst's); 0 = none (default ${DEFAULT-VALUE})")
    double pacedShare = 0.5;
    @Option(names = "--paced-seconds", description = "length of the paced run (default ${DEFAULT-VALUE})")
    int pacedSeconds = 30;
    @Option(names = "--sustained-seconds", description = "length of the sustained (closed-loop) run at the ideal rate, in seconds; 0 = none (default ${DEFAULT-VALUE})")
    int sustainedSeconds = 40;
    @Option(names = "--sustained-slack-seconds", description = "the closed loop keeps ideal rate × (LLM floor + this) questions outstanding (default ${DEFAULT-VALUE})")
    double sustainedSlackSeconds = 2.0;
    @Option(names = "--idle-seconds", description = "how long the job's CPU is measured with no question in it (default ${DEFAULT-VALUE})")
    int idleSeconds = 10;
    @Option(names = {"-D", "--job-option"}, description = "a job option key=value that differs from the job's default (repeatable; printed)")
    Map<String, String> overrides = new LinkedHashMap<>();
    @Option(names = "--job-serves", description = "the presets each fresh job serves (job.presets): measured = only the "
            + "preset it measures, all = the job's default of every preset, idle chains and their checkpoints included "
            + "(default ${DEFAULT-VALUE}; -D job.presets=... overrides both)")
    JobServes jobServes = JobServes.measured;
    @Option(names = "--order-seed", description = "shuffle the presets' order with this seed; -1 = as given (default ${DEFAULT-VALUE})")
    long orderSeed = -1;
    @Option(names = "--profile", description = "record a JFR profile of each sustained run into this folder and print "
            + "the job's busiest methods by part of the job (default: none)")
    Path profileDir;
    @Option(names = "--profile-top", description = "methods printed per part of the job with --profile (default ${DEFAULT-VALUE})")
    int profileTop = 12;
    @Option(names = "--shared-data", description = "benchmark data folder (default ${DEFAULT-VALUE})")
    Path sharedData = Path.of("../shared/data");

    public static void main(String[] args) {
        System.exit(new CommandLine(new ThroughputBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (SmallInputs.on()) {
            presets = SmallInputs.first(presets);
            slots = SmallInputs.first(slots);
            questions = SmallInputs.cap(questions, 16);
            warmupMax = SmallInputs.cap(warmupMax, 8);
            overrides.putIfAbsent(JobOptions.IDLE_AFTER.key(), "2s");
            oneAtATime = SmallInputs.cap(oneAtATime, 3);
            pacedSeconds = SmallInputs.cap(pacedSeconds, 3);
            sustainedSeconds = SmallInputs.cap(sustainedSeconds, 3);
            idleSeconds = SmallInputs.cap(idleSeconds, 2);
            SmallInputs.announce("presets " + presets + ", slots " + slots + ", " + questions + " questions, warm-up at most "
                    + warmupMax + ", " + oneAtATime + " one at a time, paced " + pacedSeconds + " s, sustained "
                    + sustainedSeconds + " s, idle " + idleSeconds + " s, " + JobOptions.IDLE_AFTER.key() + " "
                    + overrides.get(JobOptions.IDLE_AFTER.key()));
        }
        CpuAccount cpu = new CpuAccount();
        List<Summary> summaries = new ArrayList<>();
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-throughput-kafka"))) {
            cpu.markBrokerThreads();
            GoldSqlOracle oracle = GoldSqlOracle.load(sharedData.resolve("spider/dev.json"));
            for (int s : slots) {
                List<String> order = order();
                System.out.printf("%nthroughput: S=%d, presets in this order, each in a fresh job (its own MiniCluster, "
                        + "topics, simulator and state): %s%n", s, order);
                for (int i = 0; i < order.size(); i++) {
                    summaries.add(runFresh(broker, oracle, s, order.get(i), i, cpu));
                }
            }
        }
        System.out.println();
        summaries.forEach(summary -> System.out.println(summary.line()));
        return 0;
    }

    /** What each preset's fresh job serves besides the preset it measures. */
    enum JobServes { measured, all }

    /** The presets as given, or shuffled with {@code --order-seed} (a preset's place must not change its figures). */
    private List<String> order() {
        List<String> order = new ArrayList<>(presets);
        if (orderSeed >= 0) {
            Collections.shuffle(order, new Random(orderSeed));
        }
        return order;
    }

    /**
     * One preset in a job of its own: fresh topics, a fresh simulated server and a fresh job on its own local
     * MiniCluster, so no preset pays for another's in-flight state, checkpoints or warm caches (the JVM's JIT stays).
     */
    private Summary runFresh(LocalKafkaBroker broker, GoldSqlOracle oracle, int s, String preset, int place,
                             CpuAccount cpu) throws Exception {
        String suffix = "-s" + s + "-" + place + "-" + preset;
        String questionsTopic = "questions" + suffix;
        String answersTopic = "answers" + suffix;
        broker.createTopics(new TopicSpec(questionsTopic, 2), new TopicSpec(answersTopic, 2),
                new TopicSpec("dead-letters" + suffix, 1));
        Map<String, String> options = new LinkedHashMap<>();
        options.put(JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers());
        options.put(JobOptions.QUESTIONS_TOPIC.key(), questionsTopic);
        options.put(JobOptions.ANSWERS_TOPIC.key(), answersTopic);
        options.put(JobOptions.DEAD_LETTERS_TOPIC.key(), "dead-letters" + suffix);
        options.put(JobOptions.SHARED_DATA.key(), sharedData.toString());
        options.put(JobOptions.LLM_SERVER_SLOTS.key(), Integer.toString(s));
        // durable checkpoints, as every deployment has (the job warns without them): a folder of this job's own
        Path checkpoints = Files.createTempDirectory("flowsql-throughput-checkpoints");
        options.put(JobOptions.CHECKPOINT_DIR.key(), checkpoints.toUri().toString());
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                .port(0)
                .latency(LatencyModel.fixed(latencyMillis))
                .slots(s)
                .recordRequests(false)
                .responders(AgentResponders.all())
                .oracle(oracle)
                .build())) {
            options.put(JobOptions.LLM_BASE_URL.key(), llm.baseUrl());
            if (jobServes == JobServes.measured) {
                // the default preset (for questions that name none; these all name theirs) must be one it serves
                options.put(JobOptions.PRESETS.key(), preset);
                options.put(JobOptions.STRATEGY.key(), preset);
            }
            options.putAll(overrides);
            JobConfig config = JobConfig.of(options);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
            FlowSqlJob.configure(env, config);
            printConfiguration(s, preset, place, config, env);
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
            JobClient job = env.executeAsync("flowsql-throughput" + suffix);
            try {
                StreamingRun run = new StreamingRun(broker.bootstrapServers(), questionsTopic, answersTopic, latencyMillis);
                return runPreset(run, llm, config, preset, s, cpu);
            } finally {
                job.cancel().get();
            }
        } finally {
            TempFolders.deleteQuietly(checkpoints);
        }
    }

    private void printConfiguration(int s, String preset, int place, JobConfig config, StreamExecutionEnvironment env) {
        System.out.printf("%nthroughput: S=%d L=%d ms preset=%s (place %d) measured=%d warm-up<=%d one-at-a-time=%d paced=%.2f×max for %d s, "
                        + "%d cores (shared machine: rates are depressed by other load; CPU times are per thread)%n",
                s, latencyMillis, preset, place + 1, questions, warmupMax, oneAtATime, pacedShare, pacedSeconds,
                Runtime.getRuntime().availableProcessors());
        System.out.printf("  job configuration: the job's defaults, llm.server-slots=%d (the simulator's slots), job.checkpoint-dir=%s, "
                        + "job.presets=%s (%s)%s%n",
                s, overrides.containsKey(JobOptions.CHECKPOINT_DIR.key()) ? "as given by -D"
                        : "a temporary folder of this job's (-D job.checkpoint-dir= for the JobManager's memory)",
                String.join(",", config.get(JobOptions.PRESETS)),
                overrides.containsKey(JobOptions.PRESETS.key()) ? "-D"
                        : jobServes == JobServes.measured ? "--job-serves measured: the preset measured, no other chain" : "--job-serves all: the job's default",
                overrides.isEmpty() ? "" : ", overridden by -D: " + overrides);
        System.out.printf("  effective: job.checkpoint-interval=%s (idle: %s after %s, unaligned: %s) job.buffer-timeout=%s job.state-backend=%s "
                        + "checkpoints in %s, changelog %s, llm.max-concurrency=%d stage.capacity=%d dialogue.feedback-isolation=%s parallelism=%d%n",
                config.get(JobOptions.CHECKPOINT_INTERVAL), config.get(JobOptions.CHECKPOINT_INTERVAL_IDLE),
                config.get(JobOptions.IDLE_AFTER), config.get(JobOptions.UNALIGNED_CHECKPOINTS), config.get(JobOptions.BUFFER_TIMEOUT),
                config.get(JobOptions.STATE_BACKEND),
                config.get(JobOptions.CHECKPOINT_DIR).isBlank() ? "the JobManager's memory" : "a folder",
                env.getConfiguration().get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG) ? "on" : "off",
                EngineWiring.maxConcurrency(config),
                config.get(JobOptions.STAGE_CAPACITY), config.get(JobOptions.FEEDBACK_ISOLATION), env.getParallelism());
    }

    private Summary runPreset(StreamingRun run, SimulatedLlmServer llm, JobConfig config, String preset, int s,
                              CpuAccount cpu) throws Exception {
        warmUp(run, llm, preset, s, cpu);
        long warmedUp = System.nanoTime();
        Idle idle = idle(cpu);
        // a job that waits most of the day: measured again once job.idle-after has passed (idle pacing, if on)
        long settleNanos = config.get(JobOptions.IDLE_AFTER).plusSeconds(3).toNanos() - (System.nanoTime() - warmedUp);
        Thread.sleep(Math.max(0, settleNanos / 1_000_000));
        Idle settled = idle(cpu);
        List<QuestionEvent> measured = BenchmarkQuestions.of(sharedData, preset, questions, preset + "-s" + s + "-stream-");
        TokenCounts tokensBefore = llm.tokenCounts();
        long embeddingsBefore = llm.embeddingRequests();
        JvmTimes jvmBefore = JvmTimes.now();
        CpuAccount.Snapshot cpuBefore = cpu.snapshot();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long threadsBefore = threads.getTotalStartedThreadCount();
        MachineCpu machineBefore = MachineCpu.now();
        RunFigures streaming = run.run("streaming job (Kafka→Flink→Kafka)", measured, llm::requestCount, Duration.ofMinutes(15));
        long threadsStarted = threads.getTotalStartedThreadCount() - threadsBefore;
        MachineCpu machineAfter = MachineCpu.now();
        double burstBusy = machineAfter.busyShareSince(machineBefore);
        Map<String, Long> cpuUsed = cpu.between(cpuBefore, cpu.snapshot());
        JvmTimes jvmUsed = JvmTimes.now().since(jvmBefore);
        TokenCounts tokens = llm.tokenCounts().minus(tokensBefore);
        long embeddings = llm.embeddingRequests() - embeddingsBefore;

        // with L = 0 there is no ideal rate to saturate: no sustained run
        Sustained sustained = sustainedSeconds > 0 && latencyMillis > 0 ? sustained(run, llm, preset, s, streaming, cpu) : null;

        RunFigures paced = null;
        if (pacedShare > 0) {
            // the measured maximum: the sustained rate when there is one (a burst's rate includes its fill and drain)
            double maximum = sustained == null ? streaming.questionsPerSecond()
                    : Math.max(streaming.questionsPerSecond(), sustained.steady().perSecond());
            double rate = pacedShare * maximum;
            int count = Math.max(20, (int) (rate * pacedSeconds));
            paced = run.run(String.format("paced at %.0f%% (%.1f q/s)", 100 * pacedShare, rate),
                    BenchmarkQuestions.of(sharedData, preset, count, preset + "-s" + s + "-paced-"), rate,
                    llm::requestCount, Duration.ofMinutes(10));
        }
        SequentialRun oneAtATimeRun = new SequentialRun(EngineWiring.engineConfig(config), latencyMillis);
        RunFigures sequential = oneAtATimeRun
                .run("one at a time (Pipeline)", preset,
                        BenchmarkQuestions.of(sharedData, preset, oneAtATime, preset + "-s" + s + "-seq-"), llm::requestCount);

        System.out.printf("%s, S=%d, L=%d ms:%n", preset, s, latencyMillis);
        System.out.println("  " + streaming.line(s, latencyMillis));
        System.out.printf("  the burst's ceiling if the job cost nothing (the slots' work at the ideal rate, the median "
                        + "floor of %d ms paid once): %.3f; the machine's CPU during it: %.0f %% busy of %d cores (every "
                        + "process, /proc/stat)%n", streaming.floorPercentile(50), streaming.burstCeiling(s, latencyMillis),
                100 * burstBusy, machineAfter.cores());
        // every thread this JVM started during the measured run (job, broker, simulator, clients): an executor made
        // per request or per statement would show as hundreds or thousands per 1,000 questions
        System.out.printf("  threads started during the measured run: %d (%.1f per 1,000 questions; %d live at its end)%n",
                threadsStarted, 1000.0 * threadsStarted / measured.size(), threads.getThreadCount());
        System.out.println("  " + sequential.line(s, latencyMillis));
        System.out.printf("  speed-up of streaming over one at a time: %.1fx%n",
                streaming.questionsPerSecond() / sequential.questionsPerSecond());
        System.out.println("  " + oneAtATimeRun.contextBytes().line());
        if (paced != null) {
            // the paced run's own calls and each question's own floor: the critical path of its chat calls
            System.out.println("  " + paced.line(s, latencyMillis));
            System.out.printf("  paced latency over each question's own LLM floor (the critical path of its chat calls "
                            + "from the trace, parallel calls once, each at most L; median %d ms for its %.2f calls/q): "
                            + "p50 %+d ms, p95 %+d ms, p99 %+d ms; one at a time p95 %+d ms%n",
                    paced.floorPercentile(50), paced.llmCallsPerQuestion(),
                    paced.percentileOverOwnFloor(50), paced.percentileOverOwnFloor(95),
                    paced.percentileOverOwnFloor(99), sequential.percentileOverOwnFloor(95));
            System.out.printf("  paced latency over the one-at-a-time median (%d ms): p50 %+d ms, p95 %+d ms, p99 %+d ms%n",
                    sequential.percentile(50), paced.percentile(50) - sequential.percentile(50),
                    paced.percentile(95) - sequential.percentile(50), paced.percentile(99) - sequential.percentile(50));
        }
        System.out.printf("  embedding requests per question (not in the LLM calls above): %.2f%n",
                (double) embeddings / questions);
        System.out.printf("  JVM time per question in the measured run (ms, management beans): JIT compilation %.2f, "
                        + "GC collection %.2f%n", (double) jvmUsed.compilationMillis() / questions,
                (double) jvmUsed.collectionMillis() / questions);
        System.out.println(cpuLine("  CPU per question in the measured run (ms):", cpuUsed, questions));
        System.out.println(cpuLine(String.format("  CPU per second of the job with no question (ms/s, %d s: checkpoints, "
                + "heartbeats, idle polls):", idleSeconds), idle.all, idleSeconds));
        System.out.println(cpuLine("    of which the job's threads (ms/s):", idle.job, idleSeconds));
        System.out.println(cpuLine(String.format("  the same once still for job.idle-after (%s; job.checkpoint-interval-idle=%s), "
                + "ms/s:", config.get(JobOptions.IDLE_AFTER), config.get(JobOptions.CHECKPOINT_INTERVAL_IDLE)),
                settled.all, idleSeconds));
        System.out.println(cpuLine("    of which the job's threads (ms/s):", settled.job, idleSeconds));
        System.out.println("    its busiest threads (ms/s): " + String.join(", ", settled.busiest.stream()
                .map(e -> String.format("%s %.2f", e.getKey(), e.getValue() / 1e6 / idleSeconds)).toList()));
        if (sustained != null) {
            System.out.println("  " + sustained.line(s, latencyMillis));
            System.out.printf("    the machine's CPU during it: %.0f %% busy of %d cores (every process, /proc/stat)%n",
                    100 * sustained.machineBusy(), MachineCpu.now().cores());
            System.out.println(cpuLine("  CPU per question in the sustained run (ms):", sustained.cpu,
                    sustained.figures.questions()));
            System.out.println(cpuLine("    of which the job's threads (ms):", sustained.jobCpu,
                    sustained.figures.questions()));
            System.out.println("    " + jobCpuCounts(sustained, idle));
            System.out.printf("    JVM time per question (ms, management beans): JIT compilation %.2f, GC collection %.2f%n",
                    (double) sustained.jvm.compilationMillis() / sustained.figures.questions(),
                    (double) sustained.jvm.collectionMillis() / sustained.figures.questions());
        }
        System.out.printf("  tokens per question: prompt %.0f (cached %.0f, %.1f %%), completion %.0f, LLM calls %.2f%n",
                (double) tokens.promptTokens() / questions, (double) tokens.cachedPromptTokens() / questions,
                100 * tokens.cachedShare(), (double) tokens.completionTokens() / questions,
                (double) tokens.completions() / questions);
        return summary(preset, s, streaming, sustained, paced, sequential, cpuUsed, idle, burstBusy);
    }

    /**
     * What the sustained run's job CPU per question counts, and how much of it the job spends whatever the rate: the
     * idle job's CPU per second (measured right after the warm-up, checkpoints every interval) over the run's seconds.
     * At a low rate (a small S, or a loaded machine) that fixed part dominates the figure.
     */
    private static String jobCpuCounts(Sustained sustained, Idle idle) {
        int count = sustained.figures().questions();
        double jobMs = total(sustained.jobCpu()) / 1e6 / count;
        double idleMsPerSecond = total(idle.job()) / 1e6 / (idle.millis() / 1000.0);
        double fixedMs = idleMsPerSecond * sustained.figures().wallMillis() / 1000.0 / count;
        return String.format("job CPU counts the job's Java threads (task, checkpoint, LLM client, stage pools, Kafka "
                        + "clients, Flink runtime) during this run only: no warm-up, no JIT or GC threads (beside it): "
                        + "%.2f ms/q = %.2f ms/q of being up (the idle job's %.1f ms/s × %.1f s / %d q) + %.2f ms/q "
                        + "above it", jobMs, fixedMs, idleMsPerSecond, sustained.figures().wallMillis() / 1000.0,
                count, jobMs - fixedMs);
    }

    private static long total(Map<String, Long> parts) {
        return parts.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The preset's machine-readable line: from the sustained run where there is one, else from the burst. CPU per
     * question is thread CPU: the job's Java threads, the JIT compiler threads and the GC threads (from /proc; the
     * management beans' compilation and collection times, which count wall time, are printed apart above), and of the
     * job's, the part the idle job spends per second over the run's seconds ({@code job_cpu_fixed_ms}).
     * {@code burst_ceiling} is the burst's ratio if the job cost nothing ({@link RunFigures#burstCeiling}), {@code busy}
     * the machine's busy share of all cores (every process) during the run the CPU figures come from.
     */
    private Summary summary(String preset, int s, RunFigures burst, Sustained sustained, RunFigures paced,
                            RunFigures sequential, Map<String, Long> burstCpu, Idle idle, double burstBusy) {
        RunFigures measured = sustained == null ? burst : sustained.figures();
        int count = measured.questions();
        Map<String, Long> all = sustained == null ? burstCpu : sustained.cpu();
        long jobNanos = sustained == null ? burstCpu.get(CpuAccount.JOB) : total(sustained.jobCpu());
        double fixedMs = total(idle.job()) / (double) idle.millis() * measured.wallMillis() / 1e6 / count;
        RunFigures latencies = paced == null ? burst : paced;
        return new Summary(preset, s,
                sustained == null ? Double.NaN : sustained.slotShare(),
                burst.questionsPerSecond() / burst.idealQuestionsPerSecond(s, latencyMillis),
                jobNanos / 1e6 / count, all.get(CpuAccount.JIT) / 1e6 / count, all.get(CpuAccount.GC) / 1e6 / count,
                (jobNanos + all.get(CpuAccount.JIT) + all.get(CpuAccount.GC)) / 1e6 / count, fixedMs,
                latencies.floorPercentile(50), latencies.percentileOverOwnFloor(95),
                latencies.percentile(95) - sequential.percentile(50), JvmTimes.loadAverage(),
                burst.burstCeiling(s, latencyMillis), sustained == null ? burstBusy : sustained.machineBusy());
    }

    /** One preset's figures in one line a script can read (per question: ms of thread CPU; ratios: of the ideal rate). */
    private record Summary(String preset, int slots, double sustained, double burst, double jobCpuMs, double jitMs,
                           double gcMs, double cpuWithJitGcMs, double jobCpuFixedMs, long floorMs, long p95OverFloorMs,
                           long p95OverSingleMs, double load, double burstCeiling, double busy) {
        String line() {
            return String.format(java.util.Locale.ROOT, "summary: preset=%s sustained=%.3f burst=%.3f job_cpu_ms=%.2f "
                            + "jit_ms=%.2f gc_ms=%.2f floor_ms=%d p95_over_floor_ms=%d p95_over_single_ms=%d load=%.2f "
                            + "slots=%d cpu_with_jit_gc_ms=%.2f job_cpu_fixed_ms=%.2f burst_ceiling=%.3f busy=%.2f",
                    preset, sustained, burst, jobCpuMs, jitMs, gcMs, floorMs, p95OverFloorMs, p95OverSingleMs, load, slots,
                    cpuWithJitGcMs, jobCpuFixedMs, burstCeiling, busy);
        }
    }

    /** The process's CPU by part while the job runs with no question to answer: what it costs to be up. */
    private Idle idle(CpuAccount cpu) throws InterruptedException {
        CpuAccount.Snapshot before = cpu.snapshot();
        Thread.sleep(idleSeconds * 1000L);
        CpuAccount.Snapshot after = cpu.snapshot();
        return new Idle(cpu.between(before, after), cpu.jobBetween(before, after), cpu.busiestJobThreads(before, after, 12),
                idleSeconds * 1000L);
    }

    /** The CPU of an idle stretch, by part of the process, by part of the job and by the job's busiest threads. */
    private record Idle(Map<String, Long> all, Map<String, Long> job, List<Map.Entry<String, Long>> busiest, long millis) {}

    private static String cpuLine(String title, Map<String, Long> cpuUsed, int questions) {
        StringBuilder split = new StringBuilder(title);
        cpuUsed.forEach((part, nanos) -> split.append(String.format(" %s %.2f", part, nanos / 1e6 / questions)));
        return split.toString();
    }

    /**
     * A closed loop that keeps the job saturated in a steady state: ideal rate × (LLM floor + slack) questions
     * outstanding (Little's law: enough to keep every server slot busy while answers wait up to the slack for their
     * commit), one sent per answer read. The rate is measured from the moment a quarter of the answers are in to the
     * last send (while the number outstanding is still constant), in whole checkpoint periods ({@link SteadyRate}):
     * away from the fill at the start and the drain at the end that a burst of questions sent at once includes (a burst
     * of N questions pays the LLM floor once, so its rate stays below the ideal by about floor / (N / ideal + floor)
     * however fast the job is).
     */
    private Sustained sustained(StreamingRun run, SimulatedLlmServer llm, String preset, int s, RunFigures burst,
                                CpuAccount cpu) throws Exception {
        double ideal = burst.idealQuestionsPerSecond(s, latencyMillis);
        double floorSeconds = burst.llmCallsPerQuestion() * latencyMillis / 1000.0;
        int outstanding = (int) Math.ceil(ideal * (floorSeconds + sustainedSlackSeconds));
        // enough for the window (a quarter of the answers in, to the last send) to span most of the run
        int count = Math.max(4 * outstanding, (int) Math.ceil(ideal * sustainedSeconds));
        List<QuestionEvent> questions = BenchmarkQuestions.of(sharedData, preset, count, preset + "-s" + s + "-sustained-");
        ProfileRecording profile = profileDir == null ? null
                : ProfileRecording.start(Files.createDirectories(profileDir).resolve("sustained-" + preset + "-s" + s + ".jfr"));
        JvmTimes jvmBefore = JvmTimes.now();
        CpuAccount.Snapshot before = cpu.snapshot();
        MachineCpu machineBefore = MachineCpu.now();
        SlotShare slots = new SlotShare(llm::busySlots);
        RunFigures figures = run.closedLoop(String.format("closed loop of %d outstanding", outstanding),
                questions, outstanding, llm::requestCount, Duration.ofMinutes(20), slots::sample);
        CpuAccount.Snapshot after = cpu.snapshot();
        double machineBusy = MachineCpu.now().busyShareSince(machineBefore);
        JvmTimes jvm = JvmTimes.now().since(jvmBefore);
        if (profile != null) {
            profile.close();
            printProfile(profile.file());
        }
        Map<String, Long> used = cpu.between(before, after);
        Map<String, Long> jobUsed = cpu.jobBetween(before, after);
        List<Long> arrivals = figures.answeredAtMillis();
        // the last question is sent when the answer that makes room for it arrives
        long lastSend = arrivals.get(questions.size() - outstanding - 1);
        long from = arrivals.get(questions.size() / 4);
        SteadyRate steady = SteadyRate.of(arrivals, from, lastSend);
        double slotShare = slots.between(steady.startMillis(), steady.startMillis() + steady.millis());
        return new Sustained(figures, steady, slotShare, outstanding, used, jobUsed, jvm, machineBusy);
    }

    /** The sustained run's execution samples on the job's threads: per part, the busiest methods. */
    private void printProfile(Path file) throws java.io.IOException {
        System.out.printf("  profile of the sustained run (%s; JFR execution samples of the job's threads, every 10 ms "
                + "of a running Java thread):%n", file);
        ProfileRecording.read(file, profileTop).forEach((part, p) -> {
            System.out.printf("    %s: %d samples%n      self:  %s%n      total: %s%n", part, p.samples(),
                    String.join(", ", p.self().stream().map(e -> e.getKey() + " " + e.getValue()).toList()),
                    String.join(", ", p.total().stream().map(e -> e.getKey() + " " + e.getValue()).toList()));
        });
    }

    /** A sustained run: what it measured, the steady rate in its window, the questions outstanding and the CPU it used. */
    /**
     * A sustained run. Its ratio is the share of the server's slot time held in the counting window ({@link SlotShare}):
     * at most 1 by construction. The answers' rate over S / (L × calls per question) is printed beside it; it can
     * exceed 1 (answers counted in the window whose calls ran before it; the whole run's calls per question).
     */
    private record Sustained(RunFigures figures, SteadyRate steady, double slotShare, int outstanding,
                             Map<String, Long> cpu, Map<String, Long> jobCpu, JvmTimes jvm, double machineBusy) {
        String line(int slots, long latencyMillis) {
            double ideal = figures.idealQuestionsPerSecond(slots, latencyMillis);
            return String.format("sustained (closed loop, %d outstanding, %d q): steady rate %.2f q/s (%d answers in "
                            + "%.1f s of whole checkpoint periods)  %.2f LLM calls/q  ideal %.2f q/s  ratio %.3f (share of "
                            + "the server's slot time held in the window; answers' rate / ideal %.3f)  p50 %d ms",
                    outstanding, figures.questions(), steady.perSecond(), steady.answers(), steady.millis() / 1000.0,
                    figures.llmCallsPerQuestion(), ideal, slotShare, steady.perSecond() / ideal, figures.percentile(50));
        }
    }

    /**
     * Batches through the job until three batches' rates agree within 10 % and the JIT was quiet in the last one
     * ({@link WarmUpRule}), or warmupMax questions went through.
     */
    private void warmUp(StreamingRun run, SimulatedLlmServer llm, String preset, int s, CpuAccount cpu)
            throws java.io.IOException {
        int batch = Math.max(50, 2 * s);
        List<Double> rates = new ArrayList<>();
        List<Double> jitShares = new ArrayList<>();
        int usable = BenchmarkQuestions.usableCount(sharedData);
        int done = 0;
        while (done < warmupMax) {
            int size = Math.min(batch, warmupMax - done);
            CpuAccount.Snapshot before = cpu.snapshot();
            // each batch goes on where the last one ended, so the warm-up meets every database the measured runs ask
            RunFigures f = run.run("warm-up", BenchmarkQuestions.of(sharedData, preset, size,
                    preset + "-s" + s + "-warm" + done + "-", done), llm::requestCount, Duration.ofMinutes(10));
            done += size;
            rates.add(f.questionsPerSecond());
            jitShares.add(cpu.snapshot().jitSince(before) / 1e6 / Math.max(1, f.wallMillis()));
            if (WarmUpRule.settled(rates, jitShares, done, usable)) {
                break;
            }
        }
        System.out.printf("  warm-up %s: %d questions (every one of the %d usable asked once at least before it may end), "
                        + "batch rates %s q/s, JIT compiler threads' CPU %s ms/s (ends on stable rates and JIT <= %.0f ms/s; %s)%n",
                preset, done, usable, rates.stream().map(r -> String.format("%.1f", r)).toList(),
                jitShares.stream().map(j -> String.format("%.0f", 1000 * j)).toList(), 1000 * WarmUpRule.MAX_JIT_SHARE,
                WarmUpRule.settled(rates, jitShares, done, usable) ? "settled" : "NOT settled: --warmup-max reached");
    }
}

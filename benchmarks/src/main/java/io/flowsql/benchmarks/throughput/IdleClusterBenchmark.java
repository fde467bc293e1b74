package io.flowsql.benchmarks.throughput;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * What a job that waits for questions costs each process of a real cluster: the job's shaded jar on a standalone
 * session cluster started by the deploy scripts (one JobManager and TaskManagers, each its own JVM), with the job's
 * defaults unless {@code -D} says otherwise. It answers a few questions (so every operator has opened and run), waits
 * until the job has been still for {@code job.idle-after}, then reads each process's CPU time from the OS over a
 * window and prints it per second, with each TaskManager's busiest threads (their native names, from /proc).
 */
@Command(name = "idle-cluster", mixinStandardHelpOptions = true,
        description = "CPU per second of each process of a standalone cluster running the job with no question in it.")
public final class IdleClusterBenchmark implements Callable<Integer> {
    @Option(names = "--taskmanagers", description = "TaskManagers (default ${DEFAULT-VALUE})")
    int taskManagers = 2;
    @Option(names = "--slots", description = "slots per TaskManager (default ${DEFAULT-VALUE})")
    int slots = 2;
    @Option(names = "--parallelism", description = "the job's parallelism (default ${DEFAULT-VALUE}: every slot)")
    int parallelism = 0;
    @Option(names = "--preset", description = "the job's presets (job.presets; default ${DEFAULT-VALUE}: the job's default, all)")
    String presets = "";
    @Option(names = "--questions", description = "questions answered before the idle window (default ${DEFAULT-VALUE})")
    int questions = 8;
    @Option(names = "--seconds", description = "length of the idle window (default ${DEFAULT-VALUE})")
    int seconds = 60;
    @Option(names = "--settle-seconds", description = "wait after job.idle-after before the window, for the JIT to "
            + "finish compiling what the questions ran (default ${DEFAULT-VALUE})")
    int settleSeconds = 60;
    @Option(names = {"-D", "--job-option"}, description = "a job option key=value that differs from the job's default (repeatable)")
    Map<String, String> overrides = new LinkedHashMap<>();
    @Option(names = "--shared-data", description = "benchmark data folder (default ${DEFAULT-VALUE})")
    Path sharedData = Path.of("../shared/data");

    public static void main(String[] args) {
        System.exit(new CommandLine(new IdleClusterBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (SmallInputs.on()) {
            taskManagers = SmallInputs.cap(taskManagers, 1);
            slots = SmallInputs.cap(slots, 1);
            questions = SmallInputs.cap(questions, 2);
            seconds = SmallInputs.cap(seconds, 3);
            settleSeconds = SmallInputs.cap(settleSeconds, 0);
            overrides.putIfAbsent(JobOptions.IDLE_AFTER.key(), "2s");
            SmallInputs.announce(taskManagers + " TaskManager × " + slots + " slot, " + questions + " questions, "
                    + seconds + " s window, " + settleSeconds + " s settle, " + JobOptions.IDLE_AFTER.key() + " "
                    + overrides.get(JobOptions.IDLE_AFTER.key()));
        }
        Path data = sharedData.toAbsolutePath().normalize();
        Path projectDir = Path.of(System.getProperty("flowsql.project.dir", ".")).toAbsolutePath().normalize();
        Path jar = projectDir.resolve("job/target/flowsql-job-0.1.0-SNAPSHOT.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the shaded job jar first (mvn -B -q package -DskipTests): " + jar);
        }
        int p = parallelism > 0 ? parallelism : taskManagers * slots;
        System.out.printf("idle cluster: %d TaskManagers × %d slots, parallelism %d, %d questions first, then %d s still "
                + "after job.idle-after; job options given: %s%n", taskManagers, slots, p, questions, seconds, overrides);
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-idle-kafka"));
             SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(50)).slots(16).recordRequests(false)
                     .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(data.resolve("spider/dev.json")))
                     .build());
             ScriptedFlinkCluster cluster = new ScriptedFlinkCluster(projectDir, projectDir.resolve("work/bench-idle-cluster"),
                     System.getenv().getOrDefault("MVN", "mvn") + " -B -q", slots, "1536m")) {
            for (int n = 1; n <= taskManagers; n++) {
                cluster.start(n);   // one JVM at a time: all at once timed out starting on a loaded machine
            }
            broker.createTopics(new TopicSpec("questions", p), new TopicSpec("answers", p), new TopicSpec("dead-letters", 1));
            Map<String, String> options = new LinkedHashMap<>();
            options.put(JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers());
            options.put(JobOptions.QUESTIONS_TOPIC.key(), "questions");
            options.put(JobOptions.ANSWERS_TOPIC.key(), "answers");
            options.put(JobOptions.DEAD_LETTERS_TOPIC.key(), "dead-letters");
            options.put(JobOptions.SHARED_DATA.key(), data.toString());
            options.put(JobOptions.PARALLELISM.key(), Integer.toString(p));
            options.put(JobOptions.LLM_BASE_URL.key(), llm.baseUrl());
            if (!presets.isBlank()) {
                options.put(JobOptions.PRESETS.key(), presets);
            }
            options.putAll(overrides);
            JobConfig config = JobConfig.of(options);
            String job = cluster.submit(jar, Optional.empty(), config.asArguments());
            try {
                StreamingRun run = new StreamingRun(broker.bootstrapServers(), "questions", "answers", 50);
                String preset = presets.isBlank() ? "opensearch" : presets.split(",")[0].strip();
                System.out.println("  " + run.run("questions before the idle window",
                        BenchmarkQuestions.of(data, preset, questions, "idle-warmup-"), llm::requestCount,
                        Duration.ofMinutes(5)).line(16, 50));
                Thread.sleep(config.get(JobOptions.IDLE_AFTER).plusSeconds(settleSeconds).toMillis());
                List<ProcessCpu> processes = processes(cluster);
                long checkpointsBefore = completedCheckpoints(cluster, job);
                processes.forEach(ProcessCpu::begin);
                Thread.sleep(seconds * 1000L);
                System.out.printf("  %d s still (from %d s after job.idle-after), %d checkpoints completed in it:%n",
                        seconds, settleSeconds, completedCheckpoints(cluster, job) - checkpointsBefore);
                for (ProcessCpu process : processes) {
                    System.out.println("  " + process.line(seconds));
                }
            } finally {
                cluster.cancel(job);
            }
        }
        return 0;
    }

    private static long completedCheckpoints(ScriptedFlinkCluster cluster, String job) {
        return cluster.get("/jobs/" + job + "/checkpoints").path("counts").path("completed").asLong();
    }

    private List<ProcessCpu> processes(ScriptedFlinkCluster cluster) {
        List<ProcessCpu> processes = new ArrayList<>();
        processes.add(new ProcessCpu("JobManager", cluster.jobManagerPid()));
        for (int n = 1; n <= taskManagers; n++) {
            processes.add(new ProcessCpu("TaskManager " + n, cluster.taskManagerPid(n)));
        }
        return processes;
    }
}

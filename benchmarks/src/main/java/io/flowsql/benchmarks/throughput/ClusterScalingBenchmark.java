package io.flowsql.benchmarks.throughput;

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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Does a bulk evaluation get faster when the cluster grows? The job's shaded jar on a standalone Flink session
 * cluster started by the deploy scripts (TaskManagers of one slot each), run at parallelism 1, 2 and 4 against a
 * simulated LLM with latency L and enough slots S. Each TaskManager JVM may have M LLM calls in flight
 * (llm.max-concurrency), so P slots may have P × M: the LLM-bound ideal is min(P × M, S) / (L × LLM calls per
 * question). Prints, per parallelism, questions/s beside that ideal, and the CPU the cluster's processes spent per
 * question, from which the figures project to a machine with more cores (cores / CPU per question).
 *
 * <p>Arguments (all optional, positional): N questions per run (200), L in ms (500), M (4), S (64), preset (opensearch),
 * parallelisms (1,2,4), shared data folder (../shared/data). The shaded job jar must be built
 * (job/target/flowsql-job-0.1.0-SNAPSHOT.jar); the cluster's files go to work/bench-cluster/.
 */
public final class ClusterScalingBenchmark {
    private ClusterScalingBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long latencyMillis = args.length > 1 ? Long.parseLong(args[1]) : 500;
        int perTaskManager = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int serverSlots = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        String preset = args.length > 4 ? args[4] : "opensearch";
        int[] parallelisms = Arrays.stream((args.length > 5 ? args[5] : "1,2,4").split(",")).mapToInt(Integer::parseInt).toArray();
        Path sharedData = Path.of(args.length > 6 ? args[6] : "../shared/data").toAbsolutePath().normalize();
        Path projectDir = Path.of(System.getProperty("flowsql.project.dir", ".")).toAbsolutePath().normalize();
        Path jar = projectDir.resolve("job/target/flowsql-job-0.1.0-SNAPSHOT.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the shaded job jar first (mvn -B -q package -DskipTests): " + jar);
        }
        int maxParallelism = Arrays.stream(parallelisms).max().orElse(1);
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf("cluster scaling: N=%d per run, L=%d ms, M=%d LLM calls in flight per TaskManager, S=%d server slots,"
                + " preset=%s, parallelism %s on %d TaskManagers x 1 slot, %d cores%n",
                n, latencyMillis, perTaskManager, serverSlots, preset, Arrays.toString(parallelisms), maxParallelism, cores);

        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-scaling-kafka"));
             SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(latencyMillis)).slots(serverSlots).recordRequests(false)
                     .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                     .build());
             ScriptedFlinkCluster cluster = new ScriptedFlinkCluster(projectDir, projectDir.resolve("work/bench-cluster"),
                     System.getenv().getOrDefault("MVN", "mvn") + " -B -q", 1, "1536m")) {
            for (int taskManagers = 1; taskManagers <= maxParallelism; taskManagers++) {
                cluster.start(taskManagers);   // one JVM at a time: all at once timed out starting on a loaded machine
            }
            for (int p : parallelisms) {
                String suffix = "-p" + p;
                broker.createTopics(new TopicSpec("questions" + suffix, maxParallelism),
                        new TopicSpec("answers" + suffix, maxParallelism), new TopicSpec("dead-letters" + suffix, 1));
                JobConfig config = JobConfig.of(Map.ofEntries(
                        Map.entry(JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers()),
                        Map.entry(JobOptions.QUESTIONS_TOPIC.key(), "questions" + suffix),
                        Map.entry(JobOptions.ANSWERS_TOPIC.key(), "answers" + suffix),
                        Map.entry(JobOptions.DEAD_LETTERS_TOPIC.key(), "dead-letters" + suffix),
                        Map.entry(JobOptions.GROUP_ID.key(), "flowsql-scaling" + suffix),
                        Map.entry(JobOptions.TRANSACTIONAL_ID_PREFIX.key(), "flowsql-scaling" + suffix),
                        Map.entry(JobOptions.CHECKPOINT_INTERVAL.key(), "1s"),
                        Map.entry(JobOptions.TRANSACTION_TIMEOUT.key(), "60s"),
                        Map.entry(JobOptions.SHARED_DATA.key(), sharedData.toString()),
                        Map.entry(JobOptions.PARALLELISM.key(), Integer.toString(p)),
                        Map.entry(JobOptions.LLM_BASE_URL.key(), llm.baseUrl()),
                        Map.entry(JobOptions.LLM_MAX_CONCURRENCY.key(), Integer.toString(perTaskManager)),
                        Map.entry(JobOptions.STRATEGY.key(), preset)));
                String job = cluster.submit(jar, Optional.empty(), config.asArguments());
                try {
                    StreamingRun run = new StreamingRun(broker.bootstrapServers(), "questions" + suffix, "answers" + suffix,
                            latencyMillis);
                    // Not timed: operators opening their engines, the first checkpoints, JIT.
                    run.run("warm-up", BenchmarkQuestions.of(sharedData, preset, 2 * p * perTaskManager, "warmup" + suffix + "-"),
                            llm::requestCount, Duration.ofMinutes(5));
                    Duration cpuBefore = cluster.cpuTime();
                    RunFigures figures = run.run(p + " slot" + (p == 1 ? "" : "s") + " (parallelism " + p + ")",
                            BenchmarkQuestions.of(sharedData, preset, n, "run" + suffix + "-"), llm::requestCount,
                            Duration.ofMinutes(20));
                    double cpuPerQuestion = cluster.cpuTime().minus(cpuBefore).toMillis() / 1000.0 / n;
                    System.out.println(figures.line(Math.min(p * perTaskManager, serverSlots), latencyMillis));
                    System.out.printf("    cluster CPU %.3f s per question: %d cores cap it at %.1f q/s; ideal needs %.1f cores%n",
                            cpuPerQuestion, cores, cores / cpuPerQuestion,
                            figures.idealQuestionsPerSecond(Math.min(p * perTaskManager, serverSlots), latencyMillis) * cpuPerQuestion);
                } finally {
                    cluster.cancel(job);
                }
            }
        }
    }
}

package io.flowsql.benchmarks.throughput;

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
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How close the streaming job comes to what the LLM server allows: N questions through the real job
 * (in-process broker, local MiniCluster, exactly-once answers) against a simulated LLM with latency L
 * and S slots, next to the same stages run one question at a time by the plain Pipeline. Prints
 * questions/second, its ratio to the ideal S / (L × LLM calls per question), and p50/p99 latency.
 *
 * <p>Arguments (all optional, positional): N (400), L in ms (200), S (8), preset (opensearch),
 * questions for the one-at-a-time run (40), checkpoint interval in ms (200), shared data folder (../shared/data).
 */
public final class ThroughputBenchmark {
    private static final String QUESTIONS = "questions";
    private static final String ANSWERS = "answers";

    private ThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        long latencyMillis = args.length > 1 ? Long.parseLong(args[1]) : 200;
        int slots = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        String preset = args.length > 3 ? args[3] : "opensearch";
        int sequential = args.length > 4 ? Integer.parseInt(args[4]) : 40;
        long checkpointMillis = args.length > 5 ? Long.parseLong(args[5]) : 200;
        Path sharedData = Path.of(args.length > 6 ? args[6] : "../shared/data");

        System.out.printf("throughput: N=%d L=%d ms S=%d preset=%s one-at-a-time=%d checkpoint=%d ms, %d cores%n",
                n, latencyMillis, slots, preset, sequential, checkpointMillis, Runtime.getRuntime().availableProcessors());
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-throughput-kafka"));
             SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                     .port(0)
                     .latency(LatencyModel.fixed(latencyMillis))
                     .slots(slots)
                     .recordRequests(false)
                     .responders(AgentResponders.all())
                     .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                     .build())) {
            broker.createTopics(new TopicSpec(QUESTIONS, 2), new TopicSpec(ANSWERS, 2), new TopicSpec("dead-letters", 1));
            JobConfig config = JobConfig.of(Map.of(
                    JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers(),
                    JobOptions.CHECKPOINT_INTERVAL.key(), checkpointMillis + "ms",
                    JobOptions.TRANSACTION_TIMEOUT.key(), "60s",
                    JobOptions.SHARED_DATA.key(), sharedData.toString(),
                    JobOptions.PARALLELISM.key(), "2",
                    JobOptions.LLM_BASE_URL.key(), llm.baseUrl(),
                    JobOptions.LLM_MAX_CONCURRENCY.key(), Integer.toString(Math.max(32, 2 * slots)),
                    JobOptions.STRATEGY.key(), preset));

            RunFigures streaming = streaming(config, broker.bootstrapServers(), llm,
                    BenchmarkQuestions.of(sharedData, preset, 2 * slots, "warmup-"),
                    BenchmarkQuestions.of(sharedData, preset, n, "stream-"));
            RunFigures oneAtATime = new SequentialRun(EngineWiring.engineConfig(config))
                    .run("one at a time (Pipeline)", preset, BenchmarkQuestions.of(sharedData, preset, sequential, "seq-"),
                            llm::requestCount);

            System.out.println(streaming.line(slots, latencyMillis));
            System.out.println(oneAtATime.line(slots, latencyMillis));
            System.out.printf("speed-up of streaming over one at a time: %.1fx (S = %d)%n",
                    streaming.questionsPerSecond() / oneAtATime.questionsPerSecond(), slots);
        }
    }

    private static RunFigures streaming(JobConfig config, String bootstrapServers, SimulatedLlmServer llm,
                                        List<QuestionEvent> warmup, List<QuestionEvent> questions) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
        FlowSqlJob.configure(env, config);
        FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
        JobClient job = env.executeAsync("flowsql-throughput");
        try {
            StreamingRun run = new StreamingRun(bootstrapServers, QUESTIONS, ANSWERS);
            // Not timed: the job starting, its operators building their engine, the first checkpoints.
            run.run("warm-up", warmup, llm::requestCount, Duration.ofMinutes(2));
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long startedBefore = threads.getTotalStartedThreadCount();
            RunFigures figures = run.run("streaming job (Kafka→Flink→Kafka)", questions, llm::requestCount,
                    Duration.ofMinutes(10));
            long started = threads.getTotalStartedThreadCount() - startedBefore;
            // every thread this JVM started during the timed run (job, broker, simulator, clients): a per-request
            // executor would show as hundreds or thousands per 1,000 questions
            System.out.printf("threads started during the timed run: %d (%.1f per 1,000 questions; %d live at its end)%n",
                    started, 1000.0 * started / questions.size(), threads.getThreadCount());
            return figures;
        } finally {
            job.cancel().get();
        }
    }
}

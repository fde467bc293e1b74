package io.flowsql.benchmarks.throughput;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import io.flowsql.job.sql.FlowSqlScript;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Flink SQL path against the DataStream job in one run, on the same simulated LLM (latency L, S slots), the same
 * broker and the same job options: per path, a warm-up batch, then N questions sent at once, answers read
 * read_committed; printed side by side as questions/s and its share of the LLM-bound ideal S / (L × calls per question).
 * The DataStream job runs each stage as its own async operator; the SQL path runs a whole question inside one
 * FLOWSQL_ANSWER call (table.exec.async-table.buffer-capacity = stage.capacity questions in flight per subtask).
 */
@Command(name = "sql-path", mixinStandardHelpOptions = true,
        description = "Flink SQL's FLOWSQL_ANSWER against the DataStream job (deploy/bench.sh sql-path).")
public final class SqlPathBenchmark implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--preset", description = "preset (default ${DEFAULT-VALUE})")
    String preset = "opensearch";
    @Option(names = "--slots", description = "server slots S (default ${DEFAULT-VALUE})")
    int slots = 8;
    @Option(names = "--latency-ms", description = "simulated LLM latency L per call (default ${DEFAULT-VALUE})")
    long latencyMillis = 200;
    @Option(names = "--questions", description = "questions of the measured run, all sent at once (default ${DEFAULT-VALUE})")
    int questions = 200;
    @Option(names = "--warmup", description = "questions of the warm-up batch per path (default ${DEFAULT-VALUE})")
    int warmup = 100;
    @Option(names = {"-D", "--job-option"}, description = "a job option key=value for both paths (repeatable; printed)")
    Map<String, String> overrides = new LinkedHashMap<>();
    @Option(names = "--shared-data", description = "benchmark data folder (default ${DEFAULT-VALUE})")
    Path sharedData = Path.of("../shared/data");

    public static void main(String[] args) {
        System.exit(new CommandLine(new SqlPathBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        questions = SmallInputs.cap(questions, 12);
        warmup = SmallInputs.cap(warmup, 4);
        SmallInputs.announce(questions + " questions, warm-up " + warmup);
        System.out.printf("sql-path: preset=%s S=%d L=%d ms questions=%d warm-up=%d, %d cores (shared machine: rates are "
                        + "depressed by other load)%s%n", preset, slots, latencyMillis, questions, warmup,
                Runtime.getRuntime().availableProcessors(), overrides.isEmpty() ? "" : ", -D " + overrides);
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-sql-path-kafka"));
             SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                     .port(0).latency(LatencyModel.fixed(latencyMillis)).slots(slots).recordRequests(false)
                     .responders(AgentResponders.all())
                     .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build())) {
            RunFigures dataStream = measure(broker, llm, "datastream", false);
            RunFigures sql = measure(broker, llm, "sql", true);
            System.out.println("  " + dataStream.line(slots, latencyMillis));
            System.out.println("  " + sql.line(slots, latencyMillis));
            System.out.printf("  SQL path / DataStream job: %.3f of its questions/s%n",
                    sql.questionsPerSecond() / dataStream.questionsPerSecond());
        }
        return 0;
    }

    private RunFigures measure(LocalKafkaBroker broker, SimulatedLlmServer llm, String path, boolean viaSql) throws Exception {
        String questionsTopic = "questions-" + path;
        String answersTopic = "answers-" + path;
        broker.createTopics(new TopicSpec(questionsTopic, 2), new TopicSpec(answersTopic, 2), new TopicSpec("dead-letters-" + path, 1));
        Map<String, String> options = new LinkedHashMap<>();
        options.put(JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers());
        options.put(JobOptions.QUESTIONS_TOPIC.key(), questionsTopic);
        options.put(JobOptions.ANSWERS_TOPIC.key(), answersTopic);
        options.put(JobOptions.DEAD_LETTERS_TOPIC.key(), "dead-letters-" + path);
        options.put(JobOptions.GROUP_ID.key(), "flowsql-" + path);
        options.put(JobOptions.TRANSACTIONAL_ID_PREFIX.key(), "flowsql-" + path);
        options.put(JobOptions.SHARED_DATA.key(), sharedData.toString());
        options.put(JobOptions.LLM_SERVER_SLOTS.key(), Integer.toString(slots));
        options.put(JobOptions.LLM_BASE_URL.key(), llm.baseUrl());
        options.put(JobOptions.STRATEGY.key(), preset);
        options.putAll(overrides);
        JobConfig config = JobConfig.of(options);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
        FlowSqlJob.configure(env, config);
        JobClient job;
        if (viaSql) {
            job = FlowSqlScript.run(StreamTableEnvironment.create(env), FlowSqlScript.bundledFor(config)).getJobClient().orElseThrow();
        } else {
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
            job = env.executeAsync("flowsql-datastream");
        }
        try {
            StreamingRun run = new StreamingRun(broker.bootstrapServers(), questionsTopic, answersTopic, latencyMillis);
            List<QuestionEvent> warm = BenchmarkQuestions.of(sharedData, preset, warmup, path + "-warm-");
            run.run("warm-up", warm, llm::requestCount, Duration.ofMinutes(10));
            List<QuestionEvent> measured = BenchmarkQuestions.of(sharedData, preset, questions, path + "-measured-");
            return run.run(viaSql ? "Flink SQL (FLOWSQL_ANSWER)" : "DataStream job (stage operators)", measured,
                    llm::requestCount, Duration.ofMinutes(15));
        } finally {
            job.cancel().get();
        }
    }
}

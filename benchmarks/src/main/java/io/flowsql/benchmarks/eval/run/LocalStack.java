package io.flowsql.benchmarks.eval.run;

import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a one-command evaluation needs in this JVM: the in-process Kafka broker, the job on a local
 * MiniCluster, and, when no LLM endpoint is given, the simulated LLM in oracle mode (marked simulated).
 */
public final class LocalStack implements AutoCloseable {
    public static final String QUESTIONS = "questions";
    public static final String ANSWERS = "answers";
    private final LocalKafkaBroker broker;
    private final SimulatedLlmServer simulator;
    private final JobClient job;

    private LocalStack(LocalKafkaBroker broker, SimulatedLlmServer simulator, JobClient job) {
        this.broker = broker;
        this.simulator = simulator;
        this.job = job;
    }

    /**
     * @param databaseRoot  folder holding the benchmark's {@code <db>/<db>.sqlite}
     * @param llmBaseUrl    a real OpenAI-compatible endpoint, or null for the simulator in oracle mode
     * @param oracleFiles   benchmark files with gold SQL the oracle answers from (e.g. spider/dev.json)
     * @param errorInjector how the simulated oracle corrupts its SQL answers
     */
    public static LocalStack start(Path sharedData, Path databaseRoot, String llmBaseUrl, String llmModel,
                                   List<Path> oracleFiles, SqlErrorInjector errorInjector, int parallelism) throws Exception {
        return start(sharedData, databaseRoot, llmBaseUrl, llmModel, oracleFiles, errorInjector, parallelism, Map.of());
    }

    /** As above, with more job options on top (e.g. {@code llm.cache-dir}). */
    public static LocalStack start(Path sharedData, Path databaseRoot, String llmBaseUrl, String llmModel,
                                   List<Path> oracleFiles, SqlErrorInjector errorInjector, int parallelism,
                                   Map<String, String> jobOptions) throws Exception {
        LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-eval-kafka"));
        SimulatedLlmServer simulator = null;
        try {
            broker.createTopics(new TopicSpec(QUESTIONS, 2), new TopicSpec(ANSWERS, 2), new TopicSpec("dead-letters", 1));
            String baseUrl = llmBaseUrl;
            if (baseUrl == null || baseUrl.isBlank()) {
                simulator = SimulatedLlmServer.start(SimulatorConfig.builder().port(0).responders(AgentResponders.all())
                        .oracle(GoldSqlOracle.load(oracleFiles.toArray(Path[]::new))).errorInjector(errorInjector).build());
                baseUrl = simulator.baseUrl();
            }
            Map<String, String> options = new LinkedHashMap<>();
            options.put(JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers());
            options.put(JobOptions.CHECKPOINT_INTERVAL.key(), "1s");
            options.put(JobOptions.TRANSACTION_TIMEOUT.key(), "60s");
            options.put(JobOptions.SHARED_DATA.key(), sharedData.toString());
            options.put(JobOptions.DATABASE_ROOTS.key(), databaseRoot.toString());
            options.put(JobOptions.PARALLELISM.key(), String.valueOf(parallelism));
            options.put(JobOptions.LLM_BASE_URL.key(), baseUrl);
            options.put(JobOptions.LLM_MODEL.key(), llmModel);
            options.putAll(jobOptions);
            JobConfig config = JobConfig.of(options);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
            FlowSqlJob.configure(env, config);
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
            JobClient job = env.executeAsync("flowsql-eval");
            return new LocalStack(broker, simulator, job);
        } catch (Throwable e) {
            // Nothing started here may outlive a failed start (a bad -D option, an unreadable oracle file...).
            if (simulator != null) {
                simulator.close();
            }
            broker.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** LLM requests the simulated server received so far (0 with a real endpoint). */
    public long simulatedLlmRequests() {
        return simulator == null ? 0 : simulator.requestCount();
    }

    /** The chat requests the simulated server recorded so far (empty with a real endpoint). */
    public java.util.List<io.flowsql.simulator.RecordedRequest> simulatedRequests() {
        return simulator == null ? java.util.List.of() : simulator.requests();
    }

    public boolean simulated() {
        return simulator != null;
    }

    @Override
    public void close() throws Exception {
        try {
            job.cancel().get();
        } finally {
            if (simulator != null) {
                simulator.close();
            }
            broker.close();
        }
    }
}

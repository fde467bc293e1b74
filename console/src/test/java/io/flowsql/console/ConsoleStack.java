package io.flowsql.console;

import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Path;
import java.util.Map;

/**
 * What the console's tests run against, all real but the model: the production job on the test's MiniCluster reading
 * and writing the test broker, the simulated LLM over HTTP (oracle mode on Spider dev), and the console over the same
 * job options. Closing it stops the console, cancels the job and stops the simulator.
 */
final class ConsoleStack implements AutoCloseable {
    static final Path SHARED_DATA = Path.of(System.getProperty("flowsql.shared.data", "../../shared/data"));

    final SimulatedLlmServer llm;
    final JobConfig config;
    final JobClient job;
    final ConsoleServer console;

    private ConsoleStack(SimulatedLlmServer llm, JobConfig config, JobClient job, ConsoleServer console) {
        this.llm = llm;
        this.config = config;
        this.job = job;
        this.console = console;
    }

    static ConsoleStack start(String bootstrapServers, String preset) throws Exception {
        return start(bootstrapServers, preset, Map.of());
    }

    /** As {@link #start(String, String)}, with {@code more} job options (a knowledge topic, say) for the job and the console. */
    static ConsoleStack start(String bootstrapServers, String preset, Map<String, String> more) throws Exception {
        SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0).responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(SHARED_DATA.resolve("spider/dev.json"))).build());
        Map<String, String> options = new java.util.HashMap<>(more);
        options.putAll(Map.of(
                JobOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers,
                JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                JobOptions.TRANSACTION_TIMEOUT.key(), "60s",
                JobOptions.SHARED_DATA.key(), SHARED_DATA.toString(),
                JobOptions.PARALLELISM.key(), "2",
                JobOptions.STRATEGY.key(), preset,
                JobOptions.PRESETS.key(), preset,
                JobOptions.LLM_BASE_URL.key(), llm.baseUrl()));
        JobConfig config = JobConfig.of(options);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        FlowSqlJob.configure(env, config);
        FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
        JobClient job = env.executeAsync("console-test");
        ConsoleServer console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null, config.settings()));
        return new ConsoleStack(llm, config, job, console);
    }

    @Override
    public void close() throws Exception {
        console.close();
        job.cancel().get();
        llm.close();
    }
}

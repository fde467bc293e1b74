package io.flowsql.job;

import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;

import java.nio.file.Path;

/**
 * The project's simulated LLM server in oracle mode on Spider dev, in-process, for the job's tests; it can be stopped
 * and started again on the same port (a model server restart).
 */
final class OracleLlm implements AutoCloseable {
    private final SimulatorConfig config;
    private volatile SimulatedLlmServer server;

    private OracleLlm(SimulatorConfig config) {
        this.config = config;
        this.server = SimulatedLlmServer.start(config);
    }

    static OracleLlm start(Path sharedData) {
        return start(sharedData, new Path[0]);
    }

    /** Oracle on Spider dev and more files of gold questions in Spider's format (databases of a test's own). */
    static OracleLlm start(Path sharedData, Path... moreGold) {
        Path[] gold = new Path[moreGold.length + 1];
        gold[0] = sharedData.resolve("spider/dev.json");
        System.arraycopy(moreGold, 0, gold, 1, moreGold.length);
        return new OracleLlm(SimulatorConfig.builder()
                .port(0)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(gold))
                .build());
    }

    /** Oracle on Spider dev on a port of the caller's choice (so that it can come back on the same one). */
    static OracleLlm startOn(Path sharedData, int port) {
        return new OracleLlm(SimulatorConfig.builder()
                .port(port)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                .build());
    }

    /** Stops the server: its port refuses connections and calls in flight are cut. */
    void stop() {
        server.close();
    }

    /** Starts the server again on the port it had. */
    void restart() {
        server = SimulatedLlmServer.start(config);
    }

    int port() {
        return server.port();
    }

    String baseUrl() {
        return server.baseUrl();
    }

    long requestCount() {
        return server.requestCount();
    }

    @Override
    public void close() {
        server.close();
    }
}

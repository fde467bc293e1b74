package io.flowsql.job;

import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;

import java.nio.file.Path;

/** The project's simulated LLM server in oracle mode on Spider dev, in-process, for the job's tests. */
final class OracleLlm implements AutoCloseable {
    private final SimulatedLlmServer server;

    private OracleLlm(SimulatedLlmServer server) {
        this.server = server;
    }

    static OracleLlm start(Path sharedData) {
        return start(sharedData, new Path[0]);
    }

    /** Oracle on Spider dev and more files of gold questions in Spider's format (databases of a test's own). */
    static OracleLlm start(Path sharedData, Path... moreGold) {
        Path[] gold = new Path[moreGold.length + 1];
        gold[0] = sharedData.resolve("spider/dev.json");
        System.arraycopy(moreGold, 0, gold, 1, moreGold.length);
        return new OracleLlm(SimulatedLlmServer.start(SimulatorConfig.builder()
                .port(0)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(gold))
                .build()));
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

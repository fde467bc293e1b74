package io.flowsql.benchmarks.soak;

import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;

import java.nio.file.Path;

/** The simulated LLM (oracle on Spider dev) on a fixed loopback port, so it can be stopped and started again there. */
final class RestartableLlm implements AutoCloseable {
    private final SimulatorConfig config;
    private final int port;
    private SimulatedLlmServer server;

    private RestartableLlm(SimulatorConfig config, int port) {
        this.config = config;
        this.port = port;
        this.server = SimulatedLlmServer.start(config);
    }

    static RestartableLlm start(Path sharedData, int port) {
        return new RestartableLlm(SimulatorConfig.builder().port(port).latency(LatencyModel.fixed(100)).slots(8)
                .recordRequests(false).responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build(), port);
    }

    int port() {
        return port;
    }

    synchronized void stop() {
        server.close();
        server = null;
    }

    synchronized void restart() {
        server = SimulatedLlmServer.start(config);
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
        }
    }
}

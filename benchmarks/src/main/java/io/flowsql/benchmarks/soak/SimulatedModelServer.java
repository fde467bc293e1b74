package io.flowsql.benchmarks.soak;

import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The simulated LLM (oracle on Spider dev) on a fixed loopback port, so it can be stopped and started again there. */
final class SimulatedModelServer implements SoakModelServer {
    private final SimulatorConfig config;
    private final int port;
    private SimulatedLlmServer server;

    private SimulatedModelServer(SimulatorConfig config, int port) {
        this.config = config;
        this.port = port;
        this.server = SimulatedLlmServer.start(config);
    }

    static SimulatedModelServer start(Path sharedData, int port) {
        return new SimulatedModelServer(SimulatorConfig.builder().port(port).latency(LatencyModel.fixed(100)).slots(8)
                .recordRequests(false).responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build(), port);
    }

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Map<String, String> jobOptions() {
        return Map.of();
    }

    @Override
    public List<ProcessFigures> processes() {
        return List.of();
    }

    @Override
    public synchronized void stop() {
        server.close();
        server = null;
    }

    @Override
    public synchronized void restart() {
        server = SimulatedLlmServer.start(config);
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
        }
    }
}

package io.flowsql.agents;

import io.flowsql.engine.Engine;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.sql.SpiderData;
import java.time.Duration;

/** The simulated server in oracle mode on Spider dev, a client over HTTP to it, and an engine on the Spider parts. */
record OracleSimulation(SimulatedLlmServer server, OpenAiCompatibleClient client, Engine engine) implements AutoCloseable {

    static OracleSimulation start(long seed, Duration callTimeout) {
        SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder()
                .latency(LatencyModel.ZERO)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(SpiderData.sharedData().resolve("spider/dev.json")))
                .seed(seed)
                .build());
        OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(server.baseUrl())
                .defaultModel("sim").callTimeout(callTimeout).build()).build();
        return new OracleSimulation(server, client,
                new Engine(client, SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES));
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}

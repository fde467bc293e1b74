package io.flowsql.engine;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An engine for preset tests: the simulated LLM server in-process (oracle mode, every agent responder)
 * reached over HTTP by the real client, and the real Spider executor, catalog and value index.
 */
final class SimulatedEngine implements AutoCloseable {
    private final SimulatedLlmServer server;
    private final OpenAiCompatibleClient client;
    private final Engine engine;

    SimulatedEngine(GoldSqlOracle oracle, SqlErrorInjector errors) {
        this(oracle, errors, SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES);
    }

    /** The same over other database parts (e.g. a copy of a Spider database the test changes). */
    SimulatedEngine(GoldSqlOracle oracle, SqlErrorInjector errors, SafeExecutor sql, SchemaCatalog catalog,
            CachingValueIndexProvider values) {
        this.server = SimulatedLlmServer.start(SimulatorConfig.builder()
                .responders(AgentResponders.all())
                .oracle(oracle)
                .errorInjector(errors)
                .build());
        this.client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(server.baseUrl())
                .defaultModel("preset-test")
                .callTimeout(Duration.ofSeconds(10))
                .totalBudget(Duration.ofSeconds(30))
                .initialBackoff(Duration.ofMillis(20))
                .maxBackoff(Duration.ofMillis(200))
                .build()).build();
        this.engine = new Engine(client, sql, catalog, values);
    }

    Engine engine() {
        return engine;
    }

    /** Runs one question through the preset as {@code new Pipeline(strategy)} does. */
    RequestContext run(String preset, AgentSettings settings, RequestContext ctx) throws Exception {
        ctx.strategy = preset;
        return new Pipeline(StageRegistry.build(preset, engine, settings)).run(ctx).get(60, TimeUnit.SECONDS);
    }

    List<RecordedRequest> requests() {
        return server.requests();
    }

    void clearRequests() {
        server.clearRequests();
    }

    /** Closes the client and the server; the executor is shared by the test JVM and stays open. */
    @Override
    public void close() throws Exception {
        client.close();
        server.close();
    }
}

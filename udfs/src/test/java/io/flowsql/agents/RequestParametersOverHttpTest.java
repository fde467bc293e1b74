package io.flowsql.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.Engine;
import io.flowsql.engine.StageRegistry;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatedMessage;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.sql.SpiderData;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a real server would receive, read from the simulator's request log: each preset, with the default settings, on
 * one Spider question over HTTP. Every chat request carries an explicit temperature, every SQL-writing step a reply
 * budget of at least 1,000 tokens, opensearch draws 21 candidates, and MAG-SQL's generators see the matched values.
 */
class RequestParametersOverHttpTest {
    private static final String DB = "concert_singer";
    private static final String QUESTION = "What is the average, minimum, and maximum age of all singers from France?";
    private static OracleSimulation simulation;
    private static SimulatedLlmServer server;
    private static Engine engine;

    @BeforeAll
    static void start() {
        simulation = OracleSimulation.start(11, Duration.ofSeconds(20));
        server = simulation.server();
        engine = simulation.engine();
    }

    @AfterAll
    static void stop() {
        simulation.close();
    }

    private static List<RecordedRequest> run(String preset, AgentSettings settings) {
        server.clearRequests();
        RequestContext ctx = new RequestContext();
        ctx.requestId = "params-" + preset;
        ctx.dbId = DB;
        ctx.question = QUESTION;
        ctx.strategy = preset;
        RequestContext done = new Pipeline(StageRegistry.build(preset, engine, settings)).run(ctx).join();
        assertThat(done.error).as(preset + " answers").isNull();
        List<RecordedRequest> requests = server.requests();
        assertThat(requests).as(preset + " asked the model").isNotEmpty();
        return requests;
    }

    @Test
    void everyPresetSendsAnExplicitTemperatureAndGenerationBudgetsOfAtLeast1000() {
        Set<String> sqlTasks = StageRegistry.sqlWritingTasks();
        for (String preset : List.of(StageRegistry.MAG_SQL, StageRegistry.SQLFIX, StageRegistry.OPENSEARCH,
                StageRegistry.MMSQL)) {
            AgentSettings settings = new AgentSettings();
            settings.linkSkipColumnThreshold = 0;       // MAG-SQL links even this small schema
            settings.mmsqlSelectAboveColumns = 0;       // and MMSQL selects
            List<RecordedRequest> requests = run(preset, settings);
            assertThat(requests).as(preset + ": every chat request carries a temperature")
                    .allSatisfy(r -> assertThat(r.request().temperature()).as(r.request().task()).isNotNull());
            List<RecordedRequest> generation = requests.stream()
                    .filter(r -> sqlTasks.contains(r.request().task())).toList();
            assertThat(generation).as(preset + " generates SQL; tasks asked: "
                            + requests.stream().map(r -> r.request().task()).toList()).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.request().maxTokens()).as(r.request().task())
                            .isGreaterThanOrEqualTo(1000));
        }
    }

    @Test
    void openSearchDraws21CandidatesByDefaultAtItsAuthorsTemperatures() {
        List<RecordedRequest> requests = run(StageRegistry.OPENSEARCH, new AgentSettings());
        List<RecordedRequest> generate = requests.stream()
                .filter(r -> r.request().task().equals("opensearch.generate")).toList();
        assertThat(generate.stream().mapToInt(r -> r.request().n()).sum()).isEqualTo(21);
        assertThat(generate).allSatisfy(r -> assertThat(r.request().temperature()).isEqualTo(0.7));
        assertThat(requests).filteredOn(r -> r.request().task().equals("opensearch.extract"))
                .allSatisfy(r -> assertThat(r.request().temperature()).isEqualTo(0.0));
        assertThat(requests).extracting(r -> r.request().task()).as("adherence is off by default")
                .doesNotContain("opensearch.adherence");
    }

    @Test
    void magSqlGeneratorsSeeTheMatchedValues() {
        AgentSettings settings = new AgentSettings();
        settings.linkSkipColumnThreshold = 0;
        List<RecordedRequest> requests = run(StageRegistry.MAG_SQL, settings);
        List<RecordedRequest> generators = requests.stream()
                .filter(r -> r.request().task().startsWith("magsql.generate.first")
                        || r.request().task().startsWith("magsql.generate.next")).toList();
        assertThat(generators).isNotEmpty().allSatisfy(r -> {
            assertThat(r.request().temperature()).isEqualTo(0.1);
            String user = r.request().messages().stream().filter(m -> m.role().equals("user"))
                    .map(SimulatedMessage::content).reduce("", String::concat);
            assertThat(user).contains("Values found in the database:").contains("singer.Country = 'France'");
        });
    }
}

package io.flowsql.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.Engine;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.CallSpans;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.engine.StageRegistry;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.sql.SpiderData;
import io.flowsql.simulator.Responder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The mag-sql and opensearch presets on Spider dev questions, over HTTP to the simulated server in oracle mode. */
class MagSqlOpenSearchOverHttpTest {
    private static OracleSimulation simulation;
    private static SimulatedLlmServer server;
    private static Engine engine;

    @BeforeAll
    static void start() {
        simulation = OracleSimulation.start(7, Duration.ofSeconds(5));
        server = simulation.server();
        engine = simulation.engine();
    }

    @AfterAll
    static void stop() {
        simulation.close();
    }

    private static RequestContext ask(String preset, AgentSettings settings, String db, String question) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "t-" + question.hashCode();
        ctx.dbId = db;
        ctx.question = question;
        ctx.strategy = preset;
        return new Pipeline(StageRegistry.build(preset, engine, settings)).run(ctx).join();
    }

    @Test
    void magSqlLinksDecomposesAndGeneratesStepByStep() {
        AgentSettings settings = new AgentSettings();
        settings.linkSkipColumnThreshold = 0;
        RequestContext ctx = ask("mag-sql", settings, "concert_singer",
                "What are all distinct countries where singers above age 20 are from?");
        assertThat(ctx.error).isNull();
        assertThat(ctx.trace).extracting(t -> t.stage).containsExactly("schema.retrieve",
                "magsql.link", "magsql.decompose", "magsql.generate", "candidates.execute", "answer.finalize");
        assertThat(ctx.linkedColumns).contains("singer.Country", "singer.Age");
        assertThat(ctx.subQuestions).hasSize(2).last().isEqualTo(ctx.question);
        assertThat(ctx.status).isEqualTo("answered");
        assertThat(ctx.finalSql).isEqualTo("SELECT DISTINCT country FROM singer WHERE age  >  20");
        assertThat(ctx.trace.get(1).simulated).isTrue();
        assertThat(ctx.trace.get(3).llmCalls).isEqualTo(2);
        assertThat(server.requests()).isNotEmpty();
    }

    @Test
    void openSearchSamplesAlignsExecutesAndVotes() {
        AgentSettings settings = new AgentSettings();
        settings.candidates = 3;
        RequestContext ctx = ask("opensearch", settings, "concert_singer",
                "Show the name and the release year of the song by the youngest singer.");
        assertThat(ctx.error).isNull();
        assertThat(ctx.trace).extracting(t -> t.stage).containsExactly("schema.retrieve",
                "opensearch.fewshot", "opensearch.extract", "opensearch.retrieve", "opensearch.generate", "opensearch.align", "candidates.execute",
                "opensearch.correct", "opensearch.vote", "answer.finalize");
        assertThat(ctx.candidates).hasSize(3).allSatisfy(c -> assertThat(c.votes).isEqualTo(3));
        assertThat(ctx.notes).containsEntry("vote.agreement", "1.00").containsEntry("align.opensearch#0", "style:model")
                .containsEntry("align.mode", "model");
        assertThat(ctx.finalSql).isEqualTo(
                "SELECT song_name , song_release_year FROM singer WHERE age IS NOT NULL ORDER BY age LIMIT 1");
        StageTrace generate = ctx.trace.get(4);
        assertThat(generate.llmCalls).isEqualTo(1);
        assertThat(generate.simulated).isTrue();
    }

    /**
     * The opensearch preset's trace over HTTP: extraction, retrieval, generation, alignment and correction each ask the
     * simulator themselves (their own calls in their own trace entries), the vote decides without a model. The first
     * sample names a table that does not exist (every column it declared, so adherence keeps it), so correction has something to do; the others are the gold SQL,
     * whose ascending ORDER BY … LIMIT makes the model alignment's style check fire.
     */
    @Test
    void openSearchTraceShowsEachStepWithItsOwnCalls() {
        String gold = "SELECT song_name, song_release_year FROM singer ORDER BY age LIMIT 1";
        Responder samples = (request, context) -> Optional.of(IntStream.range(0, Math.max(1, request.n()))
                .mapToObj(i -> "#reason: the youngest singer's song.\n#columns: singer.song_name, singer.age\n#values: \n"
                        + "#SELECT: song_name, song_release_year\n#SQL-like: Show song_name order by age\n#SQL: "
                        + (i == 0 ? gold.replace("FROM singer", "FROM singers") : gold)).toList());
        try (SimulatedLlmServer own = SimulatedLlmServer.start(SimulatorConfig.builder().latency(LatencyModel.ZERO)
                .responders(AgentResponders.all()).responder("opensearch.generate", samples)
                .oracle(GoldSqlOracle.load(SpiderData.sharedData().resolve("spider/dev.json"))).seed(7).build());
             OpenAiCompatibleClient ownClient = OpenAiCompatibleClient.builder(LlmClientConfig.builder(own.baseUrl())
                     .defaultModel("sim").callTimeout(Duration.ofSeconds(5)).build()).build()) {
            Engine ownEngine = new Engine(ownClient, SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES);
            AgentSettings settings = new AgentSettings();
            settings.candidates = 3;
            RequestContext ctx = new RequestContext();
            ctx.requestId = "trace-calls";
            ctx.dbId = "concert_singer";
            ctx.question = "Show the name and the release year of the song by the youngest singer.";
            ctx.strategy = "opensearch";
            new Pipeline(StageRegistry.build("opensearch", ownEngine, settings)).run(ctx).join();

            assertThat(ctx.error).isNull();
            Map<String, StageTrace> byStage = ctx.trace.stream().collect(Collectors.toMap(t -> t.stage, t -> t));
            assertThat(byStage.get("opensearch.extract").llmCalls).as("entities/columns/values and the SELECT order").isEqualTo(2);
            assertThat(byStage.get("opensearch.retrieve").embeddingCalls).as("embedding calls").isPositive();
            assertThat(byStage.get("opensearch.retrieve").llmCalls).as("embeddings are no chat calls").isZero();
            assertThat(CallSpans.count(byStage.get("opensearch.retrieve").embeddingSpans)).as("each embedding timed")
                    .isEqualTo(byStage.get("opensearch.retrieve").embeddingCalls);
            assertThat(CallSpans.count(byStage.get("opensearch.extract").callSpans)).as("each chat call timed").isEqualTo(2);
            assertThat(byStage.get("opensearch.generate").llmCalls).isEqualTo(1);
            assertThat(byStage.get("opensearch.align").llmCalls).as("one style call per distinct SQL").isEqualTo(2);
            assertThat(byStage.get("opensearch.correct").llmCalls).isPositive();
            assertThat(byStage.get("opensearch.vote").llmCalls).isZero();
            assertThat(byStage.values()).filteredOn(t -> t.llmCalls > 0).allSatisfy(t -> assertThat(t.simulated).isTrue());
            assertThat(ctx.notes).containsEntry("align.opensearch#1", "style:model")
                    .containsEntry("correct.mode", "regenerate");
            assertThat(ctx.notes.get("correct.opensearch#0")).startsWith("schema>").endsWith(">fixed");
            assertThat(own.requests()).extracting(r -> r.request().task()).contains("opensearch.extract", "opensearch.extract.order",
                    "opensearch.generate", "opensearch.align.style", "opensearch.correct.schema");
            assertThat(ctx.candidates).allSatisfy(c -> assertThat(c.error).isNull());
            assertThat(ctx.status).isEqualTo("answered");
        }
    }
}

package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.opensearch.extract.Extraction;
import io.flowsql.agents.sqlfix.ReviewNotes;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageModes;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.simulator.oracle.SqlErrorKind;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every preset end to end on Spider dev questions: {@code new Pipeline(strategy)} over HTTP to the simulated
 * LLM (oracle mode) with the real client, executor, catalog and value index; checks which stages ran, in
 * which order, and that the final SQL returns the gold result.
 */
class PresetPipelineTest {
    private static final Path DEV = SpiderData.sharedData().resolve("spider/dev.json");
    /** concert_singer and pets_1 (small schemas: linking is skipped), student_transcripts_tracking (56 columns: linked). */
    private static final List<Integer> QUESTIONS = List.of(2, 45, 510);
    private static final String LINKED_DB = "student_transcripts_tracking";
    /** With this seed and a 50% syntax-error rate the draws go corrupt, clean, corrupt, clean: base broken, crafts mixed. */
    private static final long FIRST_DRAW_CORRUPTS_SEED = 1_234_567L;
    private static final ResultComparator SAME_RESULT = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);

    private static JsonNode dev;
    private static GoldSqlOracle oracle;
    private static SimulatedEngine exact;

    @BeforeAll
    static void start() throws IOException {
        dev = new ObjectMapper().readTree(DEV.toFile());
        oracle = GoldSqlOracle.load(DEV);
        exact = new SimulatedEngine(oracle, SqlErrorInjector.none());
    }

    @AfterAll
    static void stop() throws Exception {
        exact.close();
    }

    static Stream<Arguments> presetsWithTheStagesACorrectAnswerRuns() {
        return Stream.of(
                Arguments.of("mag-sql", List.of("schema.retrieve", "magsql.link", "magsql.decompose", "magsql.generate",
                        "candidates.execute", "answer.finalize")),
                Arguments.of("sqlfix", List.of("schema.retrieve", "opensearch.generate", "candidates.execute", "sqlfix.review",
                        "sqlfix.execute", "answer.finalize")),
                Arguments.of("opensearch", List.of("schema.retrieve", "opensearch.fewshot", "opensearch.extract", "opensearch.retrieve", "opensearch.generate", "opensearch.align",
                        "candidates.execute", "opensearch.correct", "opensearch.vote", "answer.finalize")),
                Arguments.of("mmsql", List.of("schema.retrieve", "mmsql.rewrite", "mmsql.select", "mmsql.detect", "mmsql.decompose",
                        "candidates.execute", "mmsql.refine", "answer.finalize")),
                Arguments.of("full", List.of("schema.retrieve", "mmsql.rewrite", "mmsql.select", "mmsql.detect", "magsql.link",
                        "magsql.decompose", "magsql.generate", "mmsql.decompose",
                        "opensearch.fewshot", "opensearch.extract", "opensearch.retrieve", "opensearch.generate", "opensearch.align",
                        "candidates.execute", "opensearch.correct", "mmsql.refine", "opensearch.vote", "sqlfix.review",
                        "sqlfix.execute", "answer.finalize")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presetsWithTheStagesACorrectAnswerRuns")
    void presetAnswersSpiderQuestionsWithTheGoldResult(String preset, List<String> stagesRun) throws Exception {
        for (int index : QUESTIONS) {
            JsonNode item = dev.get(index);
            exact.clearRequests();
            RequestContext ctx = exact.run(preset, AgentSettings.defaults(), request(item));
            String label = preset + " on dev[" + index + "] " + item.path("db_id").asText();

            assertThat(ctx.status).as(label + ": " + ctx.error).isEqualTo(AnswerStatus.ANSWERED.wireName());
            assertThat(stageNames(ctx)).as(label).containsExactlyElementsOf(stagesRun);
            assertThat(returnsGoldResult(item, ctx.finalSql)).as(label + ": " + ctx.finalSql).isTrue();
            for (StageTrace trace : ctx.trace) {
                if (trace.llmCalls > 0) {
                    assertThat(trace.simulated).as(label + " " + trace.stage + " answered by the simulator").isTrue();
                }
            }
            Set<String> tasks = tasks(exact.requests());
            boolean linked = item.path("db_id").asText().equals(LINKED_DB);
            if (stagesRun.contains("magsql.link")) {
                assertThat(tasks.contains("magsql.link")).as(label + " links only the large schema").isEqualTo(linked);
                assertThat(tasks).as(label).contains("magsql.decompose", "magsql.generate.first");
            }
            if (stagesRun.contains("sqlfix.review")) {
                assertThat(ctx.notes.get(ReviewNotes.VERDICT)).as(label).isEqualTo(ReviewNotes.CORRECT);
            }
            if (stagesRun.contains("opensearch.retrieve")) {
                // extraction asked its two calls; retrieval embedded through /v1/embeddings and found the gold columns
                assertThat(tasks).as(label).contains("opensearch.extract", "opensearch.extract.order");
                StageTrace retrieve = ctx.trace.stream().filter(t -> t.stage.equals("opensearch.retrieve")).findFirst()
                        .orElseThrow();
                assertThat(retrieve.embeddingCalls).as(label + " embedding calls").isPositive();
                assertThat(retrieve.simulated).as(label + " embeddings answered by the simulator").isTrue();
                Extraction extraction = Extraction.of(ctx).orElseThrow();
                assertThat(extraction.select()).as(label + " select order").isNotEmpty();
                String generatePrompt = exact.requests().stream().filter(r -> r.request().task().equals("opensearch.generate"))
                        .findFirst().orElseThrow().request().lastUserMessage();
                assertThat(generatePrompt).as(label).contains("Columns the query needs: "
                        + (extraction.allColumns().isEmpty() ? "(none found)" : extraction.allColumns().get(0)))
                        .contains("The answer's columns, in this order: " + extraction.select().get(0));
            }
            assertThat(tasks).as(label + " asks only its own stages")
                    .allSatisfy(task -> assertThat(stagesRun).anySatisfy(stage -> assertThat(task).startsWith(stage)));
        }
    }

    @Test
    void ablationSwitchesSingleStagesOff() throws Exception {
        JsonNode item = dev.get(QUESTIONS.get(0));
        RequestContext ctx = request(item);
        ctx.disabledStages.add("opensearch.align");
        ctx = exact.run("opensearch", AgentSettings.defaults(), ctx);
        assertThat(stageNames(ctx)).containsExactly("schema.retrieve", "opensearch.fewshot", "opensearch.extract", "opensearch.retrieve", "opensearch.generate", "candidates.execute",
                "opensearch.correct", "opensearch.vote", "answer.finalize");
        assertThat(returnsGoldResult(item, ctx.finalSql)).isTrue();

        exact.clearRequests();
        RequestContext unextracted = request(item);
        unextracted.disabledStages.addAll(List.of("opensearch.extract", "opensearch.retrieve"));
        unextracted = exact.run("opensearch", AgentSettings.defaults(), unextracted);
        assertThat(stageNames(unextracted)).doesNotContain("opensearch.extract", "opensearch.retrieve")
                .contains("opensearch.generate");
        assertThat(tasks(exact.requests())).doesNotContain("opensearch.extract", "opensearch.extract.order");
        assertThat(Extraction.of(unextracted)).isEmpty();
        assertThat(returnsGoldResult(item, unextracted.finalSql)).isTrue();

        exact.clearRequests();
        RequestContext undecomposed = request(item);
        undecomposed.disabledStages.add("magsql.decompose");
        undecomposed = exact.run("mag-sql", AgentSettings.defaults(), undecomposed);
        assertThat(stageNames(undecomposed)).containsExactly("schema.retrieve", "magsql.link", "magsql.generate", "candidates.execute",
                "answer.finalize");
        assertThat(tasks(exact.requests())).doesNotContain("magsql.decompose").contains("magsql.generate.first");
        assertThat(returnsGoldResult(item, undecomposed.finalSql)).isTrue();

        // the behaviours MAG-SQL's generation takes from the authors' code are switched per question too
        RequestContext switched = request(item);
        switched.disabledStages.addAll(StageSwitches.names().stream().filter(n -> n.startsWith("magsql.generate.")).toList());
        assertThat(switched.disabledStages).hasSize(3);
        switched = exact.run("mag-sql", AgentSettings.defaults(), switched);
        assertThat(stageNames(switched)).contains("magsql.generate");
        assertThat(switched.notes).containsEntry("magsql.postprocessed", "0").containsEntry("magsql.schema-fallback", "false");
        assertThat(returnsGoldResult(item, switched.finalSql)).isTrue();
    }

    /**
     * The opensearch preset's stages that can work in two ways switch per question (options.stage_modes, as the wire
     * question sets them): alignment by the model (its own tasks asked when a check fires) or by the rules (no
     * alignment task asked), correction with or without the regeneration; the answer is the gold result either way.
     */
    @Test
    void ablationPicksAStagesModePerQuestion() throws Exception {
        // a question whose gold orders by a column with LIMIT: the style check fires
        JsonNode item = java.util.stream.StreamSupport.stream(dev.spliterator(), false)
                .filter(q -> q.path("db_id").asText().equals("concert_singer")
                        && q.path("query").asText().matches("(?i).*ORDER BY\\s+\\w+\\s+LIMIT 1.*"))
                .findFirst().orElseThrow();
        exact.clearRequests();
        RequestContext byModel = exact.run("opensearch", AgentSettings.defaults(), request(item));
        assertThat(byModel.notes).containsEntry("align.mode", "model");
        assertThat(tasks(exact.requests())).contains("opensearch.align.style");
        assertThat(returnsGoldResult(item, byModel.finalSql)).as(byModel.finalSql).isTrue();

        exact.clearRequests();
        RequestContext byRules = request(item);
        StageModes.choose(byRules, "opensearch.align", "rules");
        StageModes.choose(byRules, "opensearch.correct", "rounds");
        byRules = exact.run("opensearch", AgentSettings.defaults(), byRules);
        assertThat(byRules.notes).containsEntry("align.mode", "rules").containsEntry("align.opensearch#0", "not-null-on-order-by");
        assertThat(tasks(exact.requests())).noneMatch(t -> t.startsWith("opensearch.align."));
        assertThat(stageNames(byRules)).contains("opensearch.align", "opensearch.correct");
        assertThat(returnsGoldResult(item, byRules.finalSql)).as(byRules.finalSql).isTrue();
    }

    /**
     * The base generator's only sample gets an injected syntax error (seeded draws: the first corrupts, one of
     * the crafter's three does too); the reviewer flags it, the crafted candidates run, the refiner picks a
     * working one and remembers the repair in the file.
     */
    @Test
    void sqlfixCatchesAnInjectedErrorAndRepairsIt(@TempDir Path dir) throws Exception {
        JsonNode item = dev.get(QUESTIONS.get(0));
        AgentSettings settings = AgentSettings.defaults();
        settings.candidates = 1;
        settings.repairMemoryPath = dir.resolve("repairs.jsonl").toString();
        SqlErrorInjector errors = new SqlErrorInjector(Map.of(SqlErrorKind.SYNTAX_ERROR, 0.5), FIRST_DRAW_CORRUPTS_SEED);
        try (SimulatedEngine flaky = new SimulatedEngine(oracle, errors)) {
            RequestContext ctx = flaky.run("sqlfix", settings, request(item));

            assertThat(ctx.status).as(ctx.error).isEqualTo(AnswerStatus.ANSWERED.wireName());
            assertThat(stageNames(ctx)).containsExactly("schema.retrieve", "opensearch.generate", "candidates.execute", "sqlfix.review",
                    "sqlfix.craft", "sqlfix.execute", "sqlfix.refine", "answer.finalize");
            Candidate base = ctx.candidates.get(0);
            assertThat(base.source).isEqualTo("opensearch#0");
            assertThat(base.error).as("the injected syntax error fails the base SQL").isNotNull();
            assertThat(ctx.notes.get(ReviewNotes.VERDICT)).isEqualTo(ReviewNotes.FLAGGED);
            assertThat(ctx.candidates).filteredOn(c -> c.source.startsWith("sqlfix.craft#")).hasSize(settings.sqlfixCrafterK)
                    .allSatisfy(c -> assertThat(c.executed).isTrue());
            assertThat(ctx.finalSql).isNotEqualTo(base.sql);
            assertThat(returnsGoldResult(item, ctx.finalSql)).as(ctx.finalSql).isTrue();
            List<String> remembered = Files.readAllLines(Path.of(settings.repairMemoryPath));
            assertThat(remembered).hasSize(1);
            assertThat(remembered.get(0)).contains(item.path("question").asText());
        }
    }

    /**
     * The dialogue history reaches every prompt of the full preset, the sub-SQL refiner's included (the seeded
     * first draw breaks the first sub-SQL, so the refiner is asked), but not the table summaries, which are
     * written once per database and shared by every dialogue.
     */
    @Test
    void historyReachesEveryPromptButTheTableSummaries() throws Exception {
        JsonNode item = dev.get(QUESTIONS.get(2));
        assertThat(item.path("db_id").asText()).isEqualTo(LINKED_DB);
        RequestContext ctx = request(item);
        ctx.history.add(new DialogueTurn("earlier", "How many students are enrolled?", "answerable",
                "SELECT count(*) FROM Student_Enrolment", "answered, 1 rows: 15"));
        SqlErrorInjector errors = new SqlErrorInjector(Map.of(SqlErrorKind.SYNTAX_ERROR, 0.5), FIRST_DRAW_CORRUPTS_SEED);
        try (SimulatedEngine flaky = new SimulatedEngine(oracle, errors)) {
            ctx = flaky.run("full", AgentSettings.defaults(), ctx);
            List<RecordedRequest> requests = flaky.requests();
            assertThat(tasks(requests)).contains("magsql.link.summarize", "magsql.generate.refine", "sqlfix.review");
            assertThat(requests).allSatisfy(r -> {
                String prompt = r.request().lastUserMessage();
                if (r.request().task().equals("magsql.link.summarize")) {
                    assertThat(prompt).doesNotContain("How many students are enrolled?");
                } else {
                    assertThat(prompt).as(r.request().task())
                            .contains("Turn 1 [answerable]: How many students are enrolled?")
                            .contains("SQL: SELECT count(*) FROM Student_Enrolment");
                }
            });
            assertThat(returnsGoldResult(item, ctx.finalSql)).as(ctx.finalSql).isTrue();
        }
    }

    private static RequestContext request(JsonNode item) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "dev-" + item.path("question").asText().hashCode();
        ctx.dbId = item.path("db_id").asText();
        ctx.question = item.path("question").asText();
        return ctx;
    }

    private static List<String> stageNames(RequestContext ctx) {
        return ctx.trace.stream().map(t -> t.stage).toList();
    }

    private static Set<String> tasks(List<RecordedRequest> requests) {
        return requests.stream().map(r -> r.request().task()).collect(java.util.stream.Collectors.toSet());
    }

    private static boolean returnsGoldResult(JsonNode item, String sql) {
        if (sql == null) {
            return false;
        }
        String db = item.path("db_id").asText();
        String goldSql = item.path("query").asText();
        ExecutionResult gold = SpiderAgentParts.EXECUTOR.execute(db, goldSql);
        ExecutionResult predicted = SpiderAgentParts.EXECUTOR.execute(db, sql);
        assertThat(gold.ok()).as("gold runs: " + goldSql).isTrue();
        return predicted.ok() && SAME_RESULT.equal(gold, goldSql, predicted);
    }
}

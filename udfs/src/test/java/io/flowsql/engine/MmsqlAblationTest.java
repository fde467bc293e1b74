package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.mmsql.MmsqlRules;
import io.flowsql.events.AnswerMapper;
import io.flowsql.flink.FeedbackTurns;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MMSQL's ablation rows (Table 6: w/o selector, w/o detector, w/o decomposer, w/o refiner) rerun on a typed CoSQL
 * dialogue through the simulator with {@code disabled_stages}: which stages ran for every turn of every row, and
 * what each switch changes.
 */
class MmsqlAblationTest {
    /** The selector on every turn (these small schemas are under agents.mmsql-select-above-columns): each row checks it. */
    private static final AgentSettings EVERY_TURN_SELECTS = everyTurnSelects();

    private static AgentSettings everyTurnSelects() {
        AgentSettings settings = AgentSettings.defaults();
        settings.mmsqlSelectAboveColumns = 0;
        return settings;
    }

    private static final ResultComparator SAME = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);

    /** One turn's outcome in one row. */
    private record Outcome(MmsqlDialogueTest.Turn turn, RequestContext ctx, List<String> tasks) {
        List<String> stages() {
            return ctx.trace.stream().map(t -> t.stage).toList();
        }
    }

    /** The typed CoSQL dialogue every row runs, with the oracle that knows it. */
    private record Typed(GoldSqlOracle oracle, String db, List<MmsqlDialogueTest.Turn> turns) {
        static Typed load() throws Exception {
            GoldSqlOracle oracle = GoldSqlOracle.load(MmsqlDialogueTest.COSQL);
            JsonNode dialogue = MmsqlDialogueTest.firstDialogueWithEveryType(oracle);
            return new Typed(oracle, dialogue.path("db_name").asText(), MmsqlDialogueTest.userTurns(dialogue));
        }
    }

    @Test
    void everyAblationRowRunsTheDialogueWithoutItsAgent() throws Exception {
        Typed typed = Typed.load();
        GoldSqlOracle oracle = typed.oracle();
        String db = typed.db();
        List<MmsqlDialogueTest.Turn> turns = typed.turns();
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("MMSQL (all agents)", null);
        rows.put("w/o selector", "mmsql.select");
        rows.put("w/o detector", "mmsql.detect");
        rows.put("w/o decomposer", "mmsql.decompose");
        rows.put("w/o refiner", "mmsql.refine");
        Map<String, List<Outcome>> results = new LinkedHashMap<>();
        try (SimulatedEngine engine = new SimulatedEngine(oracle, SqlErrorInjector.none())) {
            for (Map.Entry<String, String> row : rows.entrySet()) {
                results.put(row.getKey(), runDialogue(engine, db, turns, row.getValue()));
            }
        }
        results.forEach((row, outcomes) -> {
            System.out.println(row);
            outcomes.forEach(o -> System.out.println("  [" + o.turn().type() + "] " + o.ctx().status + ": "
                    + String.join(" → ", o.stages())));
        });

        for (Map.Entry<String, List<Outcome>> row : results.entrySet()) {
            String disabled = rows.get(row.getKey());
            for (Outcome o : row.getValue()) {
                String label = row.getKey() + " [" + o.turn().type() + "] " + o.turn().text();
                if (disabled != null) {
                    assertThat(o.stages()).as(label).doesNotContain(disabled);
                    assertThat(o.tasks()).as(label).noneMatch(task -> task.startsWith(disabled + ".") || task.equals(disabled));
                }
                boolean detected = !"mmsql.detect".equals(disabled);
                if (detected && !o.turn().type().equals("answerable")) {
                    assertThat(o.stages()).as(label).doesNotContain("mmsql.decompose", "mmsql.refine");
                    continue;
                }
                // the turn reaches SQL generation: the decomposer's SQL, else the refiner writes it directly
                assertThat(o.ctx().status).as(label + ": " + o.ctx().error).isEqualTo("answered");
                assertThat(o.stages()).as(label).contains("candidates.execute", "answer.finalize");
                if (!"mmsql.decompose".equals(disabled)) {
                    assertThat(o.stages()).as(label).contains("mmsql.decompose");
                    assertThat(o.ctx().candidates).extracting(c -> c.source).containsExactly("mmsql.decompose#1");
                } else {
                    assertThat(o.tasks()).as(label).contains("mmsql.refine.generate");
                    assertThat(o.ctx().candidates).extracting(c -> c.source).containsExactly("mmsql.refine#1");
                }
                if (!"mmsql.select".equals(disabled)) {
                    assertThat(o.ctx().notes).as(label).containsKey("mmsql.selected");
                    assertThat(o.ctx().schemaText).as(label).isNotBlank();
                } else {
                    assertThat(o.ctx().schemaText).as(label).isNull();
                }
                if (o.turn().type().equals("answerable")) {
                    ExecutionResult gold = SpiderAgentParts.EXECUTOR.execute(db, o.turn().goldSql());
                    ExecutionResult got = SpiderAgentParts.EXECUTOR.execute(db, o.ctx().finalSql);
                    assertThat(got.ok() && SAME.equal(gold, o.turn().goldSql(), got)).as(label + ": " + o.ctx().finalSql).isTrue();
                }
            }
        }
        // without the detector nothing is refused or clarified: every turn goes to the SQL agents
        assertThat(results.get("w/o detector")).allSatisfy(o -> assertThat(o.ctx().questionType).isNull());
        assertThat(results.get("MMSQL (all agents)")).extracting(o -> o.ctx().status)
                .contains("answered", "clarification", "refused");
    }

    /**
     * The per-question switches of MMSQL's own behaviours: the official code's configuration (no rewriter, the full
     * schema with three example rows instead of the selector) and our earlier readings (one call per reading, the turn
     * as written not answered), on the same dialogue.
     */
    @Test
    void theOfficialCodesConfigurationAndOurEarlierReadingsRunPerQuestion() throws Exception {
        Typed t = Typed.load();
        String db = t.db();
        try (SimulatedEngine engine = new SimulatedEngine(t.oracle(), SqlErrorInjector.none())) {
            List<Outcome> official = runDialogue(engine, db, t.turns(), List.of("mmsql.rewrite", MmsqlRules.SELECT_BY_MODEL));
            for (Outcome o : official) {
                assertThat(o.tasks()).as(o.turn().text()).doesNotContain("mmsql.rewrite", "mmsql.select");
                assertThat(o.ctx().schemaText).as(o.turn().text()).contains("3 example rows");
                if (o.turn().type().equals("answerable")) {
                    ExecutionResult gold = SpiderAgentParts.EXECUTOR.execute(db, o.turn().goldSql());
                    ExecutionResult got = SpiderAgentParts.EXECUTOR.execute(db, o.ctx().finalSql);
                    assertThat(got.ok() && SAME.equal(gold, o.turn().goldSql(), got)).as(o.ctx().finalSql).isTrue();
                }
            }
            List<Outcome> earlier = runDialogue(engine, db, t.turns(),
                    List.of(MmsqlRules.READINGS_DECOMPOSE_REFINE, MmsqlRules.READINGS_ORIGINAL_QUESTION));
            List<Outcome> authors = runDialogue(engine, db, t.turns(), List.of());
            for (int i = 0; i < t.turns().size(); i++) {
                if (!t.turns().get(i).type().equals("ambiguous")) {
                    continue;
                }
                Outcome mine = earlier.get(i);
                Outcome theirs = authors.get(i);
                assertThat(mine.tasks()).filteredOn("mmsql.readings"::equals).hasSize(mine.ctx().interpretations.size());
                assertThat(mine.tasks()).doesNotContain("mmsql.decompose");
                assertThat(theirs.ctx().interpretations).hasSize(mine.ctx().interpretations.size() + 1);
                assertThat(theirs.ctx().interpretations.get(theirs.ctx().interpretations.size() - 1).reading)
                        .isEqualTo(t.turns().get(i).text());
                assertThat(theirs.tasks()).doesNotContain("mmsql.readings")
                        .filteredOn("mmsql.decompose"::equals).hasSize(theirs.ctx().interpretations.size());
                assertThat(theirs.ctx().interpretations).allSatisfy(r -> assertThat(r.sql).isNotBlank());
            }
        }
    }

    private static List<Outcome> runDialogue(SimulatedEngine engine, String db, List<MmsqlDialogueTest.Turn> turns,
                                             String disabled) throws Exception {
        return runDialogue(engine, db, turns, disabled == null ? List.of() : List.of(disabled));
    }

    private static List<Outcome> runDialogue(SimulatedEngine engine, String db, List<MmsqlDialogueTest.Turn> turns,
                                             List<String> disabled) throws Exception {
        List<DialogueTurn> history = new ArrayList<>();
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            engine.clearRequests();
            RequestContext ctx = new RequestContext();
            ctx.requestId = db + "-" + disabled + "-" + i;
            ctx.dialogueId = db + "-" + disabled;
            ctx.dbId = db;
            ctx.question = turns.get(i).text();
            ctx.history = new ArrayList<>(history);
            ctx.disabledStages.addAll(disabled);
            ctx = engine.run("mmsql", EVERY_TURN_SELECTS, ctx);
            out.add(new Outcome(turns.get(i), ctx, engine.requests().stream().map(RecordedRequest::request)
                    .map(r -> r.task()).toList()));
            history.add(FeedbackTurns.turnOf(AnswerMapper.fromContext(ctx)));
        }
        return out;
    }
}

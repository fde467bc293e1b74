package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.events.AnswerMapper;
import io.flowsql.flink.FeedbackTurns;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * A typed CoSQL dialogue through the mmsql preset turn by turn, the history carried forward as the job does
 * (answer event → dialogue turn): each turn's type and status, readings for the ambiguous turn, no SQL for
 * refused turns, and earlier turns' questions and SQL in every later prompt the simulator received.
 */
class MmsqlDialogueTest {
    static final Path COSQL = SpiderData.sharedData().resolve("cosql/cosql_dev.json");
    private static final Set<String> TYPES = Set.of("answerable", "ambiguous", "unanswerable", "improper");

    /** One user turn and the system turn's gold SQL ("" where none is owed). */
    record Turn(String text, String type, String goldSql) {}

    @Test
    void typedDialogueRunsTurnByTurnWithItsHistoryInEveryPrompt() throws Exception {
        GoldSqlOracle oracle = GoldSqlOracle.load(COSQL);
        JsonNode dialogue = firstDialogueWithEveryType(oracle);
        String db = dialogue.path("db_name").asText();
        List<Turn> turns = userTurns(dialogue);
        ResultComparator sameResult = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        List<DialogueTurn> history = new ArrayList<>();

        try (SimulatedEngine engine = new SimulatedEngine(oracle, SqlErrorInjector.none())) {
            for (int i = 0; i < turns.size(); i++) {
                Turn turn = turns.get(i);
                String label = "turn " + (i + 1) + " [" + turn.type() + "] " + turn.text();
                engine.clearRequests();
                RequestContext ctx = new RequestContext();
                ctx.requestId = db + "-" + i;
                ctx.dialogueId = db + "-dialogue";
                ctx.dbId = db;
                ctx.question = turn.text();
                ctx.history = new ArrayList<>(history);
                ctx = engine.run("mmsql", AgentSettings.defaults(), ctx);

                assertThat(ctx.questionType).as(label).isEqualTo(turn.type());
                List<String> stages = ctx.trace.stream().map(t -> t.stage).toList();
                switch (turn.type()) {
                    case "answerable" -> {
                        assertThat(ctx.status).as(label + ": " + ctx.error).isEqualTo("answered");
                        assertThat(stages).as(label).containsExactly("schema.retrieve", "mmsql.rewrite", "mmsql.select", "mmsql.detect",
                                "mmsql.decompose", "candidates.execute", "mmsql.refine", "answer.finalize");
                        ExecutionResult gold = SpiderAgentParts.EXECUTOR.execute(db, turn.goldSql());
                        ExecutionResult answer = SpiderAgentParts.EXECUTOR.execute(db, ctx.finalSql);
                        assertThat(answer.ok() && sameResult.equal(gold, turn.goldSql(), answer))
                                .as(label + ": " + ctx.finalSql).isTrue();
                    }
                    case "ambiguous" -> {
                        assertThat(ctx.status).as(label).isEqualTo("clarification");
                        assertThat(stages).as(label).containsExactly("schema.retrieve", "mmsql.rewrite", "mmsql.select", "mmsql.detect",
                                "mmsql.readings");
                        assertThat(ctx.response).as(label).isNotBlank();
                        assertThat(ctx.interpretations).as(label).isNotEmpty()
                                .allSatisfy(r -> assertThat(r.sql).as(r.reading).isNotBlank())
                                .allSatisfy(r -> assertThat(r.error).as(r.reading).isNull());
                        assertThat(readingsAsked(engine.requests()))
                                .containsExactlyInAnyOrderElementsOf(ctx.interpretations.stream().map(r -> r.reading).toList());
                    }
                    default -> {
                        assertThat(ctx.status).as(label).isEqualTo("refused");
                        assertThat(stages).as(label).containsExactly("schema.retrieve", "mmsql.rewrite", "mmsql.select", "mmsql.detect");
                        assertThat(ctx.finalSql).as(label).isNull();
                        assertThat(ctx.response).as(label).isNotBlank();
                    }
                }
                assertThat(engine.requests()).as(label).isNotEmpty().allSatisfy(r -> {
                    String prompt = r.request().lastUserMessage();
                    for (int earlier = 0; earlier < history.size(); earlier++) {
                        DialogueTurn seen = history.get(earlier);
                        assertThat(prompt).as(label + " → " + r.request().task())
                                .contains("Turn " + (earlier + 1) + " [" + seen.questionType + "]: " + seen.question.strip());
                        if (seen.sql != null) {
                            assertThat(prompt).contains("SQL: " + seen.sql.strip().replaceAll("\\s+", " "));
                        }
                    }
                });
                history.add(FeedbackTurns.turnOf(AnswerMapper.fromContext(ctx)));
            }
        }
        assertThat(history).extracting(t -> t.questionType).containsExactlyElementsOf(turns.stream().map(Turn::type).toList());
        assertThat(history).filteredOn(t -> "answerable".equals(t.questionType)).allSatisfy(t -> assertThat(t.sql).isNotBlank());
    }

    /** The questions an ambiguous turn's readings were asked as: the decomposer answers each (the authors' code). */
    private static List<String> readingsAsked(List<RecordedRequest> requests) {
        return requests.stream().filter(r -> r.request().task().equals("mmsql.decompose"))
                .map(r -> r.request().field("Question").orElse("")).toList();
    }

    /**
     * The first dialogue on a database we have that opens with an answerable turn, has all four types, at
     * most seven user turns, and whose turns the oracle knows under their own labels (CoSQL repeats short
     * turns like "Yes" across dialogues; the oracle keeps the first).
     */
    static JsonNode firstDialogueWithEveryType(GoldSqlOracle oracle) throws Exception {
        JsonNode all = new ObjectMapper().readTree(COSQL.toFile());
        for (JsonNode dialogue : all) {
            String db = dialogue.path("db_name").asText();
            List<Turn> turns = userTurns(dialogue);
            boolean usable = Files.exists(SpiderData.sharedData().resolve("spider/database").resolve(db).resolve(db + ".sqlite"))
                    && !turns.isEmpty() && turns.size() <= 7 && turns.get(0).type().equals("answerable")
                    && turns.stream().map(Turn::type).collect(java.util.stream.Collectors.toSet()).equals(TYPES)
                    && turns.stream().allMatch(t -> oracle.questionType(db, t.text()).orElse("").equals(t.type())
                            && (t.goldSql().isEmpty() || oracle.goldSql(db, t.text()).orElse("").equals(t.goldSql())));
            if (usable) {
                return dialogue;
            }
        }
        throw new AssertionError("no CoSQL dialogue in " + COSQL + " has every question type");
    }

    static List<Turn> userTurns(JsonNode dialogue) {
        List<JsonNode> raw = StreamSupport.stream(dialogue.path("turns").spliterator(), false).toList();
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i).path("isUser").asBoolean()) {
                String gold = i + 1 < raw.size() && !raw.get(i + 1).path("isUser").asBoolean(true)
                        ? raw.get(i + 1).path("query").asText("").strip() : "";
                turns.add(new Turn(raw.get(i).path("text").asText(), raw.get(i).path("type").asText(), gold));
            }
        }
        return turns;
    }
}

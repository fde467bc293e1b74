package io.flowsql.agents.mmsql;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.Interpretation;
import io.flowsql.pipeline.QuestionType;
import io.flowsql.pipeline.RequestContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MMSQL as the authors' code (mcxiaoxiao/MMSQL, branch paper) runs it, with a scripted model on the real concert_singer
 * database: the detector's chain of thought and reply, an ambiguous turn's rewrites and the turn as written each
 * through decomposer and refiner, and the official code's full schema with example rows and no rewriter; each
 * switched back per question.
 */
class MmsqlAsAuthorsTest {
    private static final String DB = "concert_singer";
    private static final MmsqlRules DEFAULTS = MmsqlRules.from(AgentSettings.defaults());

    private static RequestContext ctx(String question) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r1";
        ctx.dbId = DB;
        ctx.question = question;
        return ctx;
    }

    @Test
    void theDetectorIsThePapersFewShotChainOfThought() {
        String system = PromptPair.load("mmsql/detect").render(SpiderAgentParts.SCHEMAS.promptFields(ctx("Hi"))).get(0).content();
        assertThat(system).contains("\"improper\"", "\"unanswerable\"", "\"entities\"", "\"conditions\"", "\"answerable\"",
                "\"rewrite\"", "Example 1", "Example 4");
        // answerable "yes" decides, as the authors' code reads it; the matches become the reason
        Detection yes = QuestionDetector.parse("```json\n{\"entities\": [{\"phrase\": \"singers\", \"columns\": [\"singer.Name\"]}],"
                + " \"conditions\": [], \"answerable\": \"Yes\", \"type\": \"ambiguous\"}\n```").orElseThrow();
        assertThat(yes.type()).isEqualTo(QuestionType.ANSWERABLE);
        assertThat(yes.reason()).isEqualTo("singers→singer.Name");
        Detection lines = QuestionDetector.parse("{\"entities\": [\"names -> singer.Name | stadium.Name\"], \"conditions\": [],"
                + " \"answerable\": \"no\", \"type\": \"unanswerable\", \"answer\": \"Sorry.\", \"rewrite\": []}").orElseThrow();
        assertThat(lines.reason()).isEqualTo("names→singer.Name|stadium.Name");
        assertThat(lines.type()).isEqualTo(QuestionType.UNANSWERABLE);
        Detection ambiguous = QuestionDetector.parse(MmsqlAgentsTest.detected("ambiguous", "Which?", "\"A?\", \"B?\"")).orElseThrow();
        assertThat(ambiguous.readings()).containsExactly("A?", "B?");
        assertThat(ambiguous.response()).isEqualTo("Which?");
        // our earlier reply (type/response/readings) is no longer read
        assertThat(QuestionDetector.parse("{\"type\": \"ambiguous\", \"reason\": \"r\", \"response\": \"Which?\","
                + " \"readings\": [\"A?\", \"B?\"]}")).isEmpty();
    }

    /** A model that writes each reading's SQL by the decomposer and fixes a failing one in the refiner. */
    private static ScriptedLlmClient model() {
        return ScriptedLlmClient.responds(r -> {
            String user = r.messages().get(1).content();
            if (r.stage().equals("mmsql.decompose")) {
                String sql = user.contains("Question: How many singers per country?")
                        ? "SELECT country, count(*) FROM singer GROUP BY countryy"
                        : user.contains("Question: How many distinct countries?") ? "SELECT count(DISTINCT country) FROM singer"
                        : "SELECT count(*) FROM singer";
                return List.of("{\"steps\": [{\"sub_question\": \"q\", \"sql\": \"" + sql + "\"}]}");
            }
            if (r.stage().startsWith("opensearch.correct")) {
                return List.of("```sql\nSELECT country, count(*) FROM singer GROUP BY country\n```");
            }
            return List.of("```sql\nSELECT 1\n```");
        });
    }

    private static RequestContext ambiguous() {
        RequestContext ctx = ctx("What about the countries?");
        ctx.history.add(new DialogueTurn("t1", "How many singers are there?", "answerable", "SELECT count(*) FROM singer", "6"));
        ctx.questionType = QuestionType.AMBIGUOUS.wireName();
        ctx.response = "Which one?";
        ctx.interpretations.add(new Interpretation("How many distinct countries?", null));
        ctx.interpretations.add(new Interpretation("How many singers per country?", null));
        ctx.settle(io.flowsql.pipeline.AnswerStatus.CLARIFICATION);
        return ctx;
    }

    private static void readings(ScriptedLlmClient llm, RequestContext ctx) {
        AgentCall call = new AgentCall(llm);
        CandidateRunner runner = new CandidateRunner(SpiderAgentParts.ROOM);
        ReadingSolver solver = new ReadingSolver(call, SpiderAgentParts.SCHEMAS, runner, new ExecutionCorrector(call, runner, 2),
                "mmsql.decompose", "mmsql.refine");
        new ReadingsStage(new ReadingSqlGenerator(call), solver, StageSql.open(SpiderAgentParts.EXECUTOR),
                c -> SpiderAgentParts.SCHEMAS.promptFields(c), DEFAULTS).applyAs("mmsql.readings", ctx).join();
    }

    @Test
    void everyRewriteAndTheTurnAsWrittenGoThroughDecomposerAndRefiner() {
        ScriptedLlmClient llm = model();
        RequestContext ctx = ambiguous();
        readings(llm, ctx);
        assertThat(ctx.interpretations).extracting(i -> i.reading)
                .containsExactly("How many distinct countries?", "How many singers per country?", "What about the countries?");
        assertThat(ctx.interpretations).extracting(i -> i.sql).containsExactly("SELECT count(DISTINCT country) FROM singer",
                "SELECT country, count(*) FROM singer GROUP BY country", "SELECT count(*) FROM singer");
        assertThat(ctx.interpretations).allSatisfy(i -> assertThat(i.error).isNull());
        assertThat(ctx.notes).containsEntry(ReadingsStage.NOTE_ORIGINAL, "2");
        assertThat(llm.requests()).extracting(ChatRequest::stage)
                .containsOnly("mmsql.decompose", "opensearch.correct.schema")
                .filteredOn("mmsql.decompose"::equals).hasSize(3);
    }

    @Test
    void perQuestionSwitchesGiveOneCallPerReadingAndDropTheTurnAsWritten() {
        ScriptedLlmClient llm = model();
        RequestContext ctx = ambiguous();
        ctx.disabledStages.add(MmsqlRules.READINGS_DECOMPOSE_REFINE);
        ctx.disabledStages.add(MmsqlRules.READINGS_ORIGINAL_QUESTION);
        readings(llm, ctx);
        assertThat(ctx.interpretations).hasSize(2);
        assertThat(llm.requests()).extracting(ChatRequest::stage).containsExactly("mmsql.readings", "mmsql.readings");

        // with the decomposer and refiner switched off as agents, the readings never ask them
        ScriptedLlmClient direct = model();
        RequestContext off = ambiguous();
        off.disabledStages.add("mmsql.decompose");
        off.disabledStages.add("mmsql.refine");
        readings(direct, off);
        assertThat(direct.requests()).extracting(ChatRequest::stage).containsOnly("mmsql.refine.generate").hasSize(3);
    }

    @Test
    void theOfficialCodesFullSchemaWithExampleRowsAndNoRewriter() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("{\"reason\": \"r\", \"keep\": [\"singer.*\"]}");
        RequestContext ctx = ctx("How many singers are from France?");
        ctx.disabledStages.add(MmsqlRules.SELECT_BY_MODEL);
        new SchemaSelectStage(new AgentCall(llm), SpiderAgentParts.SCHEMAS, DEFAULTS).applyAs("mmsql.select", ctx).join();
        assertThat(llm.requests()).isEmpty();
        assertThat(ctx.schemaText).contains("3 example rows", "stadium", "Joe Sharp");

        RequestContext chosen = ctx("How many singers are from France?");
        new SchemaSelectStage(new AgentCall(llm), SpiderAgentParts.SCHEMAS, DEFAULTS).applyAs("mmsql.select", chosen).join();
        assertThat(llm.requests()).hasSize(1);
        assertThat(chosen.schemaText).doesNotContain("stadium");

        ScriptedLlmClient rewriter = ScriptedLlmClient.alwaysResponds("{\"rewritten\": \"How many singers are from France?\"}");
        RequestContext follow = ctx("And from the Netherlands?");
        follow.history.add(new DialogueTurn("t1", "How many singers are from France?", "answerable", "SELECT 1", "4"));
        new RewriteStage(new AgentCall(rewriter), SpiderAgentParts.SCHEMAS, false).applyAs("mmsql.rewrite", follow).join();
        assertThat(rewriter.requests()).isEmpty();
        assertThat(follow.notes).doesNotContainKey(MmsqlFields.REWRITTEN);
        new RewriteStage(new AgentCall(rewriter), SpiderAgentParts.SCHEMAS, true).applyAs("mmsql.rewrite", follow).join();
        assertThat(rewriter.requests()).hasSize(1);
    }
}

package io.flowsql.agents.magsql;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.ColumnRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MAG-SQL's agents driven by scripted model outputs over real Spider schemas and databases. */
class MagSqlAgentsTest {

    private static RequestContext request(String db, String question) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r1";
        ctx.dbId = db;
        ctx.question = question;
        return ctx;
    }

    private static SoftSchemaLinker linker(ScriptedLlmClient llm, int threshold) {
        AgentCall call = new AgentCall(llm);
        return new SoftSchemaLinker(new TableSummarizer(call), new EntitySchemaLinker(call, 3),
                SpiderAgentParts.VIEWS, threshold, Integer.MAX_VALUE, 6);
    }

    @Test
    void smallSchemasSkipLinkingWithoutCallingTheModel() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("unused");
        RequestContext ctx = request("concert_singer", "What are the names of the singers from France?");
        new MagSqlLinkStage(linker(llm, 100), SpiderAgentParts.SCHEMAS).applyAs("magsql.link", ctx).join();
        assertThat(llm.requests()).isEmpty();
        assertThat(ctx.schemaText).contains("singer");
        assertThat(ctx.matchedValues).contains("singer.Country = 'France'");
        assertThat(ctx.notes).containsEntry("magsql.link.skipped", "true");
    }

    @Test
    void linksEntitiesToRankedColumnsAndCachesTableSummaries() {
        String summaries = "```json\n{\"singer\": \"Each row is a singer.\", \"concert\": \"Each row is a concert.\"}\n```";
        String tooFew = "{\"entities\": [{\"entity\": \"names\", \"columns\": [\"singer.Name\"]}]}";
        String links = "```json\n{\"entities\": [{\"entity\": \"names\", \"columns\": [\"singer.Name\", \"stadium.Name\", \"nothing.here\"]},"
                + " {\"entity\": \"France\", \"columns\": [\"singer.Country\", \"singer.Name\", \"stadium.Location\"]}]}\n```";
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(summaries, tooFew, links, links);
        SoftSchemaLinker linker = linker(llm, 5);
        RequestContext ctx = request("concert_singer", "What are the names of the singers from France?");
        new MagSqlLinkStage(linker, SpiderAgentParts.SCHEMAS).applyAs("magsql.link", ctx).join();

        assertThat(ctx.status).isNull();
        assertThat(ctx.linkedColumns).startsWith("singer.Name", "singer.Country", "stadium.Name");
        assertThat(ctx.linkedColumns).doesNotContain("nothing.here");
        List<ColumnRef> linked = ctx.linkedColumns.stream()
                .map(c -> new ColumnRef(c.substring(0, c.indexOf('.')), c.substring(c.indexOf('.') + 1))).toList();
        assertThat(ctx.schemaText)
                .isEqualTo(SpiderAgentParts.VIEWS.soft(SpiderAgentParts.CATALOG.schema("concert_singer"), linked));
        List<ChatRequest> asked = llm.requests();
        assertThat(asked).extracting(ChatRequest::stage).containsExactly("magsql.link.summarize", "magsql.link", "magsql.link");
        assertThat(asked.get(1).messages().get(1).content())
                .contains("Question: What are the names of the singers from France?", "singer: Each row is a singer.",
                        "singer.Country = 'France'");

        new MagSqlLinkStage(linker, SpiderAgentParts.SCHEMAS).applyAs("magsql.link", request("concert_singer", "How many singers?")).join();
        assertThat(llm.requests()).extracting(ChatRequest::stage).containsOnlyOnce("magsql.link.summarize");
    }

    @Test
    void decomposerEndsWithTheQuestionItselfAndReasksOnProse() {
        String question = "What are the names of singers from France who are older than 40?";
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder("Let me think about it.",
                "{\"targets\": [\"names\"], \"conditions\": [\"from France\", \"older than 40\"],"
                        + " \"sub_questions\": [\"What are the names of singers from France?\","
                        + " \"Names of French singers older than 40?\"]}");
        RequestContext ctx = request("concert_singer", question);
        new MagSqlDecomposeStage(new TargetsConditionsDecomposer(new AgentCall(llm)), SpiderAgentParts.SCHEMAS).applyAs("magsql.decompose", ctx).join();
        // the model's last sub-question is replaced by the question word for word, not followed by it
        assertThat(ctx.subQuestions).containsExactly("What are the names of singers from France?", question);
        assertThat(ctx.notes).containsEntry("magsql.conditions", "from France | older than 40");
        assertThat(llm.requests()).hasSize(2);
    }

    @Test
    void generatesStepByStepAndRefinesAFailingSubSql() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(
                "#reason: singers by country\n#SQL:\n```sql\nSELECT Name FROM singer WHERE Country = 'France'\n```",
                "#reason: add age\n#SQL:\n```sql\nSELECT Nme FROM singer WHERE Country = 'France' AND Age > 40\n```",
                "#reason: the column is Name\n#SQL: SELECT Name FROM singer WHERE Country = 'France' AND Age > 40");
        AgentCall call = new AgentCall(llm);
        RequestContext ctx = request("concert_singer", "What are the names of singers from France who are older than 40?");
        ctx.subQuestions.add("What are the names of singers from France?");
        ctx.subQuestions.add(ctx.question);
        new MagSqlGenerateStage(new SubSqlGenerator(call), new SubSqlRefiner(call, StageSql.open(SpiderAgentParts.EXECUTOR)),
                SpiderAgentParts.SCHEMAS, MagSqlRules.from(io.flowsql.agents.common.AgentSettings.defaults()))
                .applyAs("magsql.generate", ctx).join();

        assertThat(ctx.candidates).singleElement().satisfies(c -> {
            assertThat(c.source).isEqualTo("magsql");
            assertThat(c.sql).isEqualTo("SELECT Name FROM singer WHERE Country = 'France' AND Age > 40");
        });
        List<ChatRequest> asked = llm.requests();
        assertThat(asked).extracting(ChatRequest::stage)
                .containsExactly("magsql.generate.first", "magsql.generate.next", "magsql.generate.refine");
        assertThat(asked.get(1).messages().get(1).content())
                .contains("Previous SQL: SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(asked.get(2).messages().get(1).content()).contains("Problem: the query failed", "Nme");
        assertThat(ctx.trace.get(0).note).startsWith("2 steps, 1 refinements");
    }

    @Test
    void refinerStopsAfterTheConfiguredRounds() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(
                "#SQL: SELECT Name FROM singer WHERE Country = 'Atlantis'",
                "#SQL: SELECT Name FROM singer WHERE Country = 'Mars'");
        SubSqlRefiner refiner = new SubSqlRefiner(new AgentCall(llm), StageSql.open(SpiderAgentParts.EXECUTOR));
        SubSqlRefiner.Refined refined = refiner.refine(MagSqlRulesTest.frame(request("concert_singer", "Singers from Atlantis?"),
                        MagSqlRules.from(io.flowsql.agents.common.AgentSettings.defaults())),
                "Singers from Atlantis?", "SELECT Name FROM singer WHERE Country = 'atlantis'", new io.flowsql.pipeline.StageTrace("x")).join();
        assertThat(refined.rounds()).isEqualTo(2);
        assertThat(refined.sql()).isEqualTo("SELECT Name FROM singer WHERE Country = 'Mars'");
        assertThat(refined.remainingProblem()).contains("the query returned no rows");
        assertThat(llm.requests()).hasSize(2);
    }
}

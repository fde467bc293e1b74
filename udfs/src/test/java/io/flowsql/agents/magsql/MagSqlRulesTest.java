package io.flowsql.agents.magsql;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.ValueText;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MAG-SQL's refinement as the authors' code does it (LancelotXWX/MAG-SQL {@code Refiner}), each rule against real
 * executions on Spider's concert_singer, with a scripted model: two rounds, the NULL rule, the full-schema fallback,
 * the nested-query prompt, post-processing, and the pruning bounds; each switched off per question where it can be.
 */
class MagSqlRulesTest {
    private static final MagSqlRules ORIGINAL = MagSqlRules.from(AgentSettings.defaults());

    static RequestContext request(String db, String question) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r1";
        ctx.dbId = db;
        ctx.question = question;
        return ctx;
    }

    static SubSqlRefiner.Frame frame(RequestContext ctx, MagSqlRules rules) {
        return new SubSqlRefiner.Frame(SpiderAgentParts.SCHEMAS.promptFields(ctx),
                SpiderAgentParts.VIEWS.full(SpiderAgentParts.SCHEMAS.schema(ctx)),
                ValueText.forPrompt(ctx.matchedValues), rules.forRequest(ctx), ctx.tenant);
    }

    private static SubSqlRefiner.Refined refine(ScriptedLlmClient llm, MagSqlRules rules, String sql) {
        RequestContext ctx = request("concert_singer", "Which singers?");
        return new SubSqlRefiner(new AgentCall(llm), StageSql.open(SpiderAgentParts.EXECUTOR))
                .refine(frame(ctx, rules), "Which singers?", sql, new StageTrace("magsql.generate")).join();
    }

    private static MagSqlRules anyNull() {
        AgentSettings s = AgentSettings.defaults();
        s.magRefineOnAnyNull = true;
        return MagSqlRules.from(s);
    }

    @Test
    void theOriginalRefinesTwiceAtMost() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder("#SQL: SELECT Name FROM singer WHERE Country = 'Mars'",
                "#SQL: SELECT Name FROM singer WHERE Country = 'Venus'", "#SQL: SELECT Name FROM singer");
        SubSqlRefiner.Refined refined = refine(llm, ORIGINAL, "SELECT Name FROM singer WHERE Country = 'Atlantis'");
        assertThat(AgentSettings.defaults().magRefineRounds).isEqualTo(2);
        assertThat(llm.requests()).hasSize(2);
        assertThat(refined.sql()).isEqualTo("SELECT Name FROM singer WHERE Country = 'Venus'");
    }

    @Test
    void nullsSendAResultBackOnlyWhenTheFirstFiveRowsOfSeveralMixThem() {
        String fixed = "#SQL: SELECT Name FROM singer";
        // one row holding NULL: the answer, as the authors' code takes it (our earlier rule refined it)
        ScriptedLlmClient one = ScriptedLlmClient.alwaysResponds(fixed);
        assertThat(refine(one, ORIGINAL, "SELECT max(Age) FROM singer WHERE Country = 'Mars'").rounds()).isZero();
        assertThat(one.requests()).isEmpty();
        ScriptedLlmClient oneAnyNull = ScriptedLlmClient.alwaysResponds(fixed);
        assertThat(refine(oneAnyNull, anyNull(), "SELECT max(Age) FROM singer WHERE Country = 'Mars'").rounds()).isEqualTo(1);
        // several rows, only NULL: taken as the answer
        ScriptedLlmClient allNull = ScriptedLlmClient.alwaysResponds(fixed);
        assertThat(refine(allNull, ORIGINAL, "SELECT NULL FROM singer").rounds()).isZero();
        // NULL beside values in the first five rows: refined, with the NULL named
        ScriptedLlmClient mixed = ScriptedLlmClient.alwaysResponds(fixed);
        assertThat(refine(mixed, ORIGINAL, "SELECT Name, CASE WHEN Age > 40 THEN Age END FROM singer ORDER BY Singer_ID").rounds())
                .isEqualTo(1);
        assertThat(mixed.requests().get(0).messages().get(1).content()).contains("Problem: the result contains NULL");
        // a NULL only in the sixth row: not seen by the original, seen by the any-NULL rule
        String sixth = "SELECT CASE WHEN Singer_ID = 6 THEN NULL ELSE Name END FROM singer ORDER BY Singer_ID";
        ScriptedLlmClient late = ScriptedLlmClient.alwaysResponds(fixed);
        assertThat(refine(late, ORIGINAL, sixth).rounds()).isZero();
        ScriptedLlmClient lateAnyNull = ScriptedLlmClient.alwaysResponds(fixed);
        assertThat(refine(lateAnyNull, anyNull(), sixth).rounds()).isEqualTo(1);
    }

    @Test
    void noSuchColumnShowsTheFullSchemaToTheRefinerAndTheLaterSteps() {
        RequestContext ctx = linkedRequest();
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(
                "#SQL: SELECT Name FROM singer WHERE Capacity > 1000",
                "#SQL: SELECT T1.Name FROM stadium AS T1 WHERE T1.Capacity > 1000",
                "#SQL: SELECT T1.Name FROM stadium AS T1 WHERE T1.Capacity > 1000 AND T1.Location = 'Raith Rovers'");
        generate(llm, ctx);
        String full = SpiderAgentParts.VIEWS.full(SpiderAgentParts.CATALOG.schema("concert_singer"));
        assertThat(ctx.schemaText).isNotEqualTo(full);
        List<ChatRequest> asked = llm.requests();
        assertThat(asked).extracting(ChatRequest::stage)
                .containsExactly("magsql.generate.first", "magsql.generate.refine", "magsql.generate.next");
        assertThat(asked.get(0).messages().get(1).content()).contains(ctx.schemaText).doesNotContain(full);
        assertThat(asked.get(1).messages().get(1).content()).contains(full, "Problem: the query failed", "full schema");
        assertThat(asked.get(2).messages().get(1).content()).contains(full);
        assertThat(ctx.notes).containsEntry(MagSqlGenerateStage.NOTE_FELL_BACK, "true");

        RequestContext off = linkedRequest();
        off.disabledStages.add(MagSqlRules.SCHEMA_FALLBACK);
        ScriptedLlmClient kept = ScriptedLlmClient.respondsInOrder(
                "#SQL: SELECT Name FROM singer WHERE Capacity > 1000",
                "#SQL: SELECT T1.Name FROM stadium AS T1 WHERE T1.Capacity > 1000",
                "#SQL: SELECT T1.Name FROM stadium AS T1 WHERE T1.Capacity > 1000 AND T1.Location = 'Raith Rovers'");
        generate(kept, off);
        assertThat(kept.requests().get(1).messages().get(1).content()).contains(off.schemaText).doesNotContain(full, "full schema");
        assertThat(kept.requests().get(2).messages().get(1).content()).doesNotContain(full);
        assertThat(off.notes).containsEntry(MagSqlGenerateStage.NOTE_FELL_BACK, "false");
    }

    /** A request whose schema text is the soft schema around two singer columns (stadium's Highest is not shown). */
    private static RequestContext linkedRequest() {
        RequestContext ctx = request("concert_singer", "Which stadiums in Raith Rovers hold more than 1000?");
        DatabaseSchema schema = SpiderAgentParts.CATALOG.schema("concert_singer");
        ctx.schemaText = SpiderAgentParts.VIEWS.soft(schema,
                List.of(new ColumnRef("singer", "Name"), new ColumnRef("singer", "Country")));
        ctx.subQuestions.add("Which stadiums hold more than 1000?");
        ctx.subQuestions.add(ctx.question);
        return ctx;
    }

    private static void generate(ScriptedLlmClient llm, RequestContext ctx) {
        AgentCall call = new AgentCall(llm);
        new MagSqlGenerateStage(new SubSqlGenerator(call), new SubSqlRefiner(call, StageSql.open(SpiderAgentParts.EXECUTOR)),
                SpiderAgentParts.SCHEMAS, ORIGINAL).applyAs("magsql.generate", ctx).join();
    }

    @Test
    void anEmptyNestedQueryGetsTheNestedPromptWithTheValuesFound() {
        String nested = "SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID"
                + " WHERE T1.Age = (SELECT max(Age) FROM singer WHERE Country = 'Mars')";
        RequestContext ctx = request("concert_singer", "Who is the oldest singer who sang?");
        ctx.matchedValues.add("singer.Country = 'France'");
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL: SELECT Name FROM singer ORDER BY Age DESC LIMIT 1");
        new SubSqlRefiner(new AgentCall(llm), StageSql.open(SpiderAgentParts.EXECUTOR))
                .refine(frame(ctx, ORIGINAL), ctx.question, nested, new StageTrace("magsql.generate")).join();
        assertThat(llm.requests()).extracting(ChatRequest::stage).containsExactly("magsql.generate.refine.nested");
        assertThat(llm.requests().get(0).messages().get(1).content()).contains("singer.Country = 'France'");

        RequestContext off = request("concert_singer", "Who is the oldest singer who sang?");
        off.disabledStages.add(MagSqlRules.NESTED_HINT);
        ScriptedLlmClient plain = ScriptedLlmClient.alwaysResponds("#SQL: SELECT Name FROM singer ORDER BY Age DESC LIMIT 1");
        new SubSqlRefiner(new AgentCall(plain), StageSql.open(SpiderAgentParts.EXECUTOR))
                .refine(frame(off, ORIGINAL), off.question, nested, new StageTrace("magsql.generate")).join();
        assertThat(plain.requests()).extracting(ChatRequest::stage).containsExactly("magsql.generate.refine");

        // a flat query that returns nothing keeps the ordinary prompt
        ScriptedLlmClient flat = ScriptedLlmClient.alwaysResponds("#SQL: SELECT Name FROM singer");
        refine(flat, ORIGINAL, "SELECT Name FROM singer WHERE Country = 'Mars'");
        assertThat(flat.requests()).extracting(ChatRequest::stage).containsExactly("magsql.generate.refine");
    }

    @Test
    void acceptedSubSqlIsPostProcessedUnlessSwitchedOff() {
        String written = "SELECT Name || ' ' || Country FROM singer ORDER BY Age ASC LIMIT 1";
        RequestContext ctx = request("concert_singer", "Name and country of the youngest singer?");
        generate(ScriptedLlmClient.alwaysResponds("#SQL: " + written), ctx);
        assertThat(ctx.candidates.get(0).sql).isEqualTo("SELECT Name, Country FROM singer ORDER BY Age ASC NULLS LAST LIMIT 1");
        assertThat(ctx.notes).containsEntry(MagSqlGenerateStage.NOTE_POSTPROCESSED, "1");
        assertThat(SpiderAgentParts.EXECUTOR.execute("concert_singer", ctx.candidates.get(0).sql).rows())
                .containsExactly(List.of("Tribal King", "France"));

        RequestContext off = request("concert_singer", "Name and country of the youngest singer?");
        off.disabledStages.add(MagSqlRules.POSTPROCESS);
        generate(ScriptedLlmClient.alwaysResponds("#SQL: " + written), off);
        assertThat(off.candidates.get(0).sql).isEqualTo(written);
    }

    @Test
    void linkingFollowsTheAuthorsBoundsOnAverageAndTotalColumns() {
        // perpetrator: 2 tables, 13 columns (average 6): linked by the authors' bounds, skipped under "total > 30" alone
        DatabaseSchema perpetrator = SpiderAgentParts.CATALOG.schema("perpetrator");
        assertThat(perpetrator.columnCount()).isLessThanOrEqualTo(25);
        assertThat(SoftSchemaLinker.needsLinking(perpetrator, 25, 5)).isTrue();
        assertThat(SoftSchemaLinker.needsLinking(perpetrator, 30, Integer.MAX_VALUE)).isFalse();
        // concert_singer: 4 tables, 21 columns (average 5): shown whole either way
        DatabaseSchema concert = SpiderAgentParts.CATALOG.schema("concert_singer");
        assertThat(SoftSchemaLinker.needsLinking(concert, 25, 5)).isFalse();
        // a total above 25 is linked whatever the average
        DatabaseSchema transcripts = SpiderAgentParts.CATALOG.schema("student_transcripts_tracking");
        assertThat(SoftSchemaLinker.needsLinking(transcripts, 25, 100)).isTrue();
        assertThat(AgentSettings.defaults().linkSkipColumnThreshold).isEqualTo(25);
        assertThat(AgentSettings.defaults().linkSkipAvgColumns).isEqualTo(5);
    }
}

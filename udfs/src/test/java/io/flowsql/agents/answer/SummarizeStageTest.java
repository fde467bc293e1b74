package io.flowsql.agents.answer;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.access.AccessPolicies;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.AnswerMapper;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Summaries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SummarizeStageTest {
    private static final String SQL = "SELECT Country, count(*) FROM singer GROUP BY Country ORDER BY count(*) DESC";
    private static final String REPLY = "```json\n{\"summary\": \"La France a le plus de chanteurs (4).\"}\n```";

    @Test
    void writesTheSummaryFromTheQuestionTheSqlAndABoundedSliceOfTheAnswersRows() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(REPLY);
        RequestContext ctx = answered("Quel pays a le plus de chanteurs ?", 30);
        Summaries.request(ctx, true);

        SummarizeStage stage = stage(llm, Set.of(), new SummarizeStage.ResultSlice(5, 8));
        assertThat(stage.appliesTo(ctx)).isTrue();
        stage.applyAs("answer.summarize", ctx).join();

        AnswerEvent answer = AnswerMapper.fromContext(ctx);
        assertThat(answer.summary).isEqualTo("La France a le plus de chanteurs (4).");
        assertThat(answer.status).isEqualTo("answered");
        assertThat(ctx.trace).singleElement().satisfies(t -> {
            assertThat(t.stage).isEqualTo("answer.summarize");
            assertThat(t.llmCalls).isEqualTo(1);
        });
        String prompt = userText(llm.requests().get(0));
        assertThat(prompt).contains("Question: Quel pays a le plus de chanteurs ?", "SQL: " + SQL,
                "Outcome: answered: 30 row(s)", "Country | count(*)", "Country0 | 30", "Country4 | 26",
                "(25 more rows not shown)");
        assertThat(prompt).doesNotContain("Country5").doesNotContain("Country19");
        assertThat(prompt).contains("VeryLong…").doesNotContain("VeryLongName");
    }

    @Test
    void notAskedForIsSkippedWithoutAModelCall() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(REPLY);
        RequestContext ctx = answered("Which country has the most singers?", 3);
        SummarizeStage stage = stage(llm, Set.of("mmsql"), SummarizeStage.ResultSlice.DEFAULT);
        ctx.strategy = "opensearch";
        assertThat(stage.appliesTo(ctx)).isFalse();
        ctx.strategy = "mmsql";
        assertThat(stage.appliesTo(ctx)).as("the preset asks").isTrue();
        Summaries.request(ctx, false);
        assertThat(stage.appliesTo(ctx)).as("the question declines").isFalse();
        assertThat(llm.requests()).isEmpty();
        assertThat(AnswerMapper.fromContext(ctx).summary).isNull();

        RequestContext clarification = answered("Which one?", 1);
        clarification.status = null;
        clarification.settle(AnswerStatus.CLARIFICATION);
        Summaries.request(clarification, true);
        assertThat(stage.appliesTo(clarification)).as("a clarification already has its reply").isFalse();
    }

    @Test
    void anEmptyResultAndAFailureAreToldAsSuch() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(REPLY);
        SummarizeStage stage = stage(llm, Set.of(), SummarizeStage.ResultSlice.DEFAULT);
        RequestContext empty = answered("Which singers are from Peru?", 0);
        Summaries.request(empty, true);
        stage.applyAs("answer.summarize", empty).join();
        assertThat(userText(llm.requests().get(0))).contains("Outcome: answered: the query returned no rows");

        RequestContext failed = new RequestContext();
        failed.requestId = "r-failed";
        failed.dbId = "concert_singer";
        failed.question = "Which singers are from Peru?";
        failed.fail("opensearch.generate", FailureKind.NO_SQL, "no stage produced SQL");
        Summaries.request(failed, true);
        assertThat(stage.appliesTo(failed)).isTrue();
        stage.applyAs("answer.summarize", failed).join();
        assertThat(userText(llm.requests().get(1))).contains("Outcome: failed: no answer could be found (no stage produced SQL)",
                "SQL: (none)", "(no rows)");
        assertThat(failed.status).isEqualTo("failed");
    }

    @Test
    void aModelFailureLeavesTheAnswerAnsweredWithoutSummary() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysFails(LlmErrorKind.SERVER_ERROR);
        RequestContext ctx = answered("Which country has the most singers?", 3);
        Summaries.request(ctx, true);
        stage(llm, Set.of(), SummarizeStage.ResultSlice.DEFAULT).applyAs("answer.summarize", ctx).join();
        assertThat(ctx.status).isEqualTo("answered");
        assertThat(AnswerMapper.fromContext(ctx).summary).isNull();
        assertThat(ctx.trace.get(0).note).startsWith("no summary");
    }

    @Test
    void aHostileTenantsSummaryPromptHoldsNoValueOfATableOutsideItsPolicy() {
        AccessPolicies policies = AccessPolicies.fromOptions(Map.of(
                "team-a.databases", "concert_singer", "team-a.tables.concert_singer", "singer,concert"), "");
        SchemaContext schemas = new SchemaContext(new io.flowsql.access.DataDoors(null, SpiderAgentParts.CATALOG, policies),
                SpiderAgentParts.VIEWS, new HistoryRenderer());
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(REPLY);
        SummarizeStage stage = new SummarizeStage(new AgentCall(llm), schemas::promptFields, Set.of(), SummarizeStage.ResultSlice.DEFAULT);

        RequestContext ctx = answered("Which country has the most singers?", 3);
        ctx.tenant = "team-a";
        // a hostile candidate that read the forbidden table: refused by the gate, so never the answer's rows
        Candidate hostile = new Candidate("opensearch.generate", "SELECT Name, Location FROM stadium");
        hostile.executed = true;
        hostile.error = "forbidden: the SQL reads a table this question may not use";
        hostile.previewColumns = List.of("Name", "Location");
        hostile.setPreview(List.of(List.of("Stark's Park", "Raith Rovers"), List.of("Balmoor", "Peterhead")));
        ctx.candidates.add(0, hostile);
        Summaries.request(ctx, true);
        stage.applyAs("answer.summarize", ctx).join();

        String prompt = userText(llm.requests().get(0));
        assertThat(prompt).contains("Country | count(*)", "# Table: singer");
        assertThat(prompt.toLowerCase(java.util.Locale.ROOT)).doesNotContain("stark's park", "balmoor", "raith rovers", "peterhead");

        // the forbidden SQL as the final SQL (refused, so no answer rows): the model is told there are none
        RequestContext refused = answered("List every stadium.", 2);
        refused.tenant = "team-a";
        refused.candidates.clear();
        refused.candidates.add(hostile);
        refused.finalSql = hostile.sql;
        Summaries.request(refused, true);
        stage.applyAs("answer.summarize", refused).join();
        String second = userText(llm.requests().get(1));
        assertThat(second).contains("(no rows)").doesNotContain("Balmoor").doesNotContain("Stark");
    }

    private static SummarizeStage stage(ScriptedLlmClient llm, Set<String> presets, SummarizeStage.ResultSlice slice) {
        return new SummarizeStage(new AgentCall(llm),
                ctx -> PromptFields.shared(ctx.dbId, ctx.question, ctx.evidence, "(none)", "singer(Singer_ID, Name, Country)"),
                presets, slice);
    }

    /** An answered request whose chosen candidate returned {@code rows} rows (the preview holds at most 20). */
    private static RequestContext answered(String question, int rows) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-" + rows;
        ctx.dbId = "concert_singer";
        ctx.question = question;
        Candidate c = new Candidate("opensearch.generate", SQL);
        c.executed = true;
        c.rowCount = rows;
        c.previewColumns = List.of("Country", "count(*)");
        List<List<String>> preview = new ArrayList<>();
        for (int i = 0; i < Math.min(rows, 20); i++) {
            preview.add(List.of(i == 1 ? "VeryLongName" : "Country" + i, Integer.toString(rows - i)));
        }
        c.setPreview(preview);
        ctx.candidates.add(c);
        ctx.finalSql = SQL;
        ctx.settle(AnswerStatus.ANSWERED);
        return ctx;
    }

    private static String userText(ChatRequest request) {
        return request.messages().get(request.messages().size() - 1).content();
    }
}

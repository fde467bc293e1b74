package io.flowsql.agents.mmsql;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.sqlfix.SpiderFrames;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.Test;

/** MMSQL's detector and readings stages against scripted outputs on the real concert_singer database. */
class MmsqlAgentsTest {
    private static final String DB = "concert_singer";
    private static final String HISTORY = "Turn 1 [answerable]: How many singers are there?\n  SQL: SELECT count(*) FROM singer";

    private static RequestContext ctx(String question) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = DB;
        ctx.question = question;
        return ctx;
    }

    private static PromptFields frame(RequestContext ctx) {
        return SpiderFrames.frame(ctx.dbId, ctx.question, HISTORY);
    }

    /** The detector's reply in the paper's format after its chain of thought; {@code rewrites} is the JSON array's inside. */
    static String detected(String type, String answer, String rewrites) {
        return "#improper: no\n```json\n{\"improper\": \"not improper\", \"unanswerable\": \"not unanswerable\","
                + " \"entities\": [\"countries -> singer.Country\"], \"conditions\": [],"
                + " \"answerable\": \"no\", \"type\": \"" + type + "\", \"answer\": \"" + answer + "\", \"rewrite\": [" + rewrites + "]}\n```";
    }

    @Test
    void ambiguousTurnGetsClarificationAndReadingsEachAnsweredWithSql() {
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> {
            if (r.stage().equals("mmsql.detect")) {
                return java.util.List.of(detected("ambiguous", "Which one?",
                        "\"How many distinct countries do singers come from?\", \"How many singers are there per country?\""));
            }
            String user = r.messages().get(1).content();
            return java.util.List.of(user.contains("Question: How many distinct")
                    ? "```sql\nSELECT count(DISTINCT country) FROM singer\n```"
                    : "```sql\nSELECT country, count(*) FROM singer GROUP BY countryy\n```");
        });
        AgentCall call = new AgentCall(llm);
        RequestContext ctx = ctx("What about the countries?");
        new QuestionDetectorStage(new QuestionDetector(call), MmsqlAgentsTest::frame).applyAs("mmsql.detect", ctx).join();
        assertThat(ctx.questionType).isEqualTo("ambiguous");
        assertThat(ctx.status).isEqualTo("clarification");
        assertThat(ctx.response).isEqualTo("Which one?");
        assertThat(ctx.interpretations).hasSize(2);

        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(SpiderData.locator(), SqlExecutorConfig.defaults())) {
            // our earlier way: one generator call per reading, the readings only (MmsqlAsAuthorsTest: the authors' way)
            ReadingsStage readings = new ReadingsStage(new ReadingSqlGenerator(call), null, StageSql.open(executor), MmsqlAgentsTest::frame,
                    new MmsqlRules(true, true, false, false));
            assertThat(readings.appliesTo(ctx)).isTrue();
            readings.applyAs("mmsql.readings", ctx).join();
        }
        assertThat(ctx.interpretations.get(0).sql).isEqualTo("SELECT count(DISTINCT country) FROM singer");
        assertThat(ctx.interpretations.get(0).error).isNull();
        assertThat(ctx.interpretations.get(1).error).contains("countryy");
        assertThat(ctx.trace).extracting(t -> t.stage).containsExactly("mmsql.detect", "mmsql.readings");
        assertThat(llm.requests()).allSatisfy(r -> assertThat(r.messages().get(1).content()).contains(HISTORY));
    }

    @Test
    void improperTurnIsRefusedWithItsReply() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(
                detected("improper", "You are welcome!", ""));
        RequestContext ctx = ctx("Thanks!");
        new QuestionDetectorStage(new QuestionDetector(new AgentCall(llm)), MmsqlAgentsTest::frame).applyAs("mmsql.detect", ctx).join();
        assertThat(ctx.status).isEqualTo("refused");
        assertThat(ctx.response).isEqualTo("You are welcome!");
        assertThat(ctx.finalSql).isNull();
    }

    @Test
    void answerableTurnStaysOpenForTheGenerators() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("```json\n{\"answerable\": \"Yes\"}\n```");
        RequestContext ctx = ctx("How many concerts are there?");
        new QuestionDetectorStage(new QuestionDetector(new AgentCall(llm)), MmsqlAgentsTest::frame).applyAs("mmsql.detect", ctx).join();
        assertThat(ctx.questionType).isEqualTo("answerable");
        assertThat(ctx.isSettled()).isFalse();
    }

    @Test
    void ambiguousWithoutReadingsIsReaskedThenFailsTheStage() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(
                detected("ambiguous", "Which?", ""));
        RequestContext ctx = ctx("What about it?");
        new QuestionDetectorStage(new QuestionDetector(new AgentCall(llm)), MmsqlAgentsTest::frame).applyAs("mmsql.detect", ctx).join();
        assertThat(llm.requests()).hasSize(2);
        assertThat(ctx.status).isEqualTo("failed");
        assertThat(ctx.failedStage).isEqualTo("mmsql.detect");
        assertThat(ctx.error).contains("UNPARSEABLE_OUTPUT");
        StageTrace trace = ctx.trace.get(0);
        assertThat(trace.llmCalls).isEqualTo(2);
    }
}

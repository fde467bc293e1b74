package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.opensearch.adherence.AdherenceStage;
import io.flowsql.agents.opensearch.adherence.ExtractionAdherence;
import io.flowsql.agents.opensearch.correct.ErrorClass;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.agents.opensearch.correct.ExecutionProblem;
import io.flowsql.agents.opensearch.correct.OpenSearchCorrectStage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.engine.DatabaseEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * OpenSearch-SQL's correction by error class and its adherence check, with scripted model answers and real
 * executions on Spider's concert_singer.
 */
class CorrectionAndAdherenceTest {
    private static final CandidateRunner RUNNER = new CandidateRunner(SpiderAgentParts.ROOM);
    private static final QuestionValues VALUES = new QuestionValues(SpiderAgentParts.SCHEMAS, 6);
    private static final String FRENCH = "What are the names of the singers from France?";

    private static Candidate ran(String source, String sql) {
        return RUNNER.run("concert_singer", new Candidate(source, sql));
    }

    private static Optional<ErrorClass> classOf(String question, String sql) {
        return ExecutionProblem.of(ran("x", sql), question, DatabaseEngine.SQLITE).map(ExecutionProblem::kind);
    }

    private static RequestContext request(String question, Candidate... candidates) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        ctx.question = question;
        ctx.candidates.addAll(List.of(candidates));
        return ctx;
    }

    private static String fenced(String sql) {
        return "#reason: fixed.\n```sql\n" + sql + "\n```";
    }

    private static OpenSearchCorrectStage correctStage(ScriptedLlmClient llm, int rounds) {
        return new OpenSearchCorrectStage(new ExecutionCorrector(new AgentCall(llm), RUNNER, rounds),
                SpiderAgentParts.SCHEMAS, VALUES);
    }

    @Test
    void executionsAreClassifiedByWhatWentWrong() {
        assertThat(classOf(FRENCH, "SELECT Name FROM singer WHERE")).contains(ErrorClass.SYNTAX);
        assertThat(classOf(FRENCH, "SELECT Nme FROM singer")).contains(ErrorClass.SCHEMA);
        assertThat(classOf(FRENCH, "SELECT Name FROM singer WHERE Country = 'france'")).contains(ErrorClass.EMPTY);
        assertThat(classOf(FRENCH, "SELECT Name, NULL AS Nickname FROM singer WHERE Country = 'France'")).contains(ErrorClass.NULLS);
        assertThat(classOf("How many singers are there?", "SELECT Name FROM singer")).contains(ErrorClass.SHAPE);
        assertThat(classOf("What is the name of the oldest singer?", "SELECT Name FROM singer")).contains(ErrorClass.SHAPE);
        assertThat(classOf("How many singers are there?", "SELECT count(*) FROM singer")).isEmpty();
        assertThat(classOf("What is the name of the oldest singer?", "SELECT Name FROM singer ORDER BY Age DESC LIMIT 1")).isEmpty();
        assertThat(classOf(FRENCH, "SELECT Name FROM singer WHERE Country = 'France'")).isEmpty();
    }

    @Test
    void eachClassIsAskedWithItsOwnPromptAndTheFixReplacesTheCandidate() {
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> List.of(switch (r.stage()) {
            case "opensearch.correct.syntax" -> fenced("SELECT Name FROM singer WHERE Country = 'france'");
            case "opensearch.correct.empty" -> fenced("SELECT Name FROM singer WHERE Country = 'France'");
            default -> "no";
        }));
        Candidate broken = ran("opensearch#0", "SELECT Name FROM singer WHERE Country = 'france' LIMIT");
        Candidate fine = ran("opensearch#1", "SELECT Name FROM singer WHERE Country = 'France'");
        RequestContext ctx = request(FRENCH, broken, fine);
        correctStage(llm, 2).applyAs("opensearch.correct", ctx).join();

        // round 1 fixes the syntax but comes back empty; round 2 uses the empty-result prompt
        assertThat(llm.requests()).extracting(ChatRequest::stage)
                .containsExactly("opensearch.correct.syntax", "opensearch.correct.empty");
        assertThat(llm.requests().get(0).messages().get(0).content()).startsWith("### Task: opensearch.correct.syntax");
        assertThat(llm.requests().get(1).messages().get(1).content())
                .contains("Problem: the query returned no rows", "singer.Country = 'France'", "Question: " + FRENCH);
        assertThat(broken.sql).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(broken.resultFingerprint).isEqualTo(fine.resultFingerprint);
        assertThat(ctx.notes).containsEntry("correct.opensearch#0", "syntax>empty>fixed")
                .doesNotContainKey("correct.opensearch#1");
        assertThat(ctx.trace.get(0).stage).isEqualTo("opensearch.correct");
        assertThat(ctx.trace.get(0).llmCalls).isEqualTo(2);
    }

    @Test
    void roundsAreBoundedAndTheBestAttemptIsKept() {
        // the model keeps answering a query that runs but returns nothing: better than the error, never right
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> List.of(fenced(
                "SELECT Name FROM singer WHERE Country = 'Atlantis" + r.messages().size() + System.nanoTime() + "'")));
        Candidate a = ran("opensearch#0", "SELECT Nme FROM singer");
        Candidate b = ran("opensearch#1", "SELECT  Nme FROM singer");
        RequestContext ctx = request(FRENCH, a, b);
        correctStage(llm, 2).applyAs("opensearch.correct", ctx).join();

        assertThat(llm.requests()).as("same SQL corrected once, two rounds").hasSize(2);
        assertThat(a.error).isNull();
        assertThat(a.rowCount).isZero();
        assertThat(b.sql).isEqualTo(a.sql);
        assertThat(ctx.notes.get("correct.opensearch#0")).isEqualTo("schema>empty>improved");
        assertThat(ctx.status).isNull();
    }

    @Test
    void zeroRoundsAndUnreadableAnswersLeaveCandidatesAlone() {
        ScriptedLlmClient silent = ScriptedLlmClient.alwaysResponds("I do not know.");
        Candidate a = ran("opensearch#0", "SELECT Nme FROM singer");
        RequestContext ctx = request(FRENCH, a);
        correctStage(silent, 2).applyAs("opensearch.correct", ctx).join();
        assertThat(silent.requests()).as("one ask and AgentCall's one re-ask").hasSize(2);
        assertThat(a.sql).isEqualTo("SELECT Nme FROM singer");
        assertThat(ctx.notes).containsEntry("correct.opensearch#0", "schema>kept");
        assertThat(ctx.status).as("the request goes on to the vote").isNull();

        ScriptedLlmClient unused = ScriptedLlmClient.alwaysResponds(fenced("SELECT 1"));
        correctStage(unused, 0).applyAs("opensearch.correct", request(FRENCH, ran("opensearch#0", "SELECT Nme FROM singer"))).join();
        assertThat(unused.requests()).isEmpty();
    }

    @Test
    void adherenceListsWhatTheSqlLeftOutOfItsOwnExtraction() {
        assertThat(ExtractionAdherence.missed("SELECT Name FROM singer WHERE Country = 'france'",
                "singer.Name, singer.Country", "singer.Country = 'France'")).containsExactly("value 'France'");
        assertThat(ExtractionAdherence.missed("SELECT Name FROM singer", "singer.Name, singer.Age", "none"))
                .containsExactly("column singer.Age");
        assertThat(ExtractionAdherence.missed("SELECT T1.Name FROM singer AS T1 WHERE T1.Country = 'France'",
                "singer.Name, singer.Country", "singer.Country = 'France'")).isEmpty();
    }

    @Test
    void aSampleThatIgnoresItsExtractionIsGeneratedAgain() {
        String again = "#reason: use the declared value\n#columns: singer.Name, singer.Country\n"
                + "#values: singer.Country = 'France'\n#SELECT: SELECT Name\n#SQL-like: x\n#SQL:\n```sql\n"
                + "SELECT Name FROM singer WHERE Country = 'France'\n```";
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(again);
        RequestContext ctx = request(FRENCH, new Candidate("opensearch#0", "SELECT Name FROM singer WHERE Country = 'france'"),
                new Candidate("opensearch#1", "SELECT Name FROM singer WHERE Country = 'France'"));
        for (String source : List.of("opensearch#0", "opensearch#1")) {
            ctx.notes.put(OpenSearchGenerateStage.DECLARED_COLUMNS + source, "singer.Name, singer.Country");
            ctx.notes.put(OpenSearchGenerateStage.DECLARED_VALUES + source, "singer.Country = 'France'");
        }
        new AdherenceStage(new AgentCall(llm), SpiderAgentParts.SCHEMAS, VALUES).applyAs("opensearch.adherence", ctx).join();

        assertThat(llm.requests()).hasSize(1);
        assertThat(llm.requests().get(0).stage()).isEqualTo("opensearch.adherence");
        assertThat(llm.requests().get(0).messages().get(1).content()).contains("Not used by the SQL: value 'France'");
        assertThat(ctx.candidates.get(0).sql).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(ctx.notes).containsEntry("adherence.opensearch#0", "missed value 'France'; regenerated")
                .doesNotContainKey("adherence.opensearch#1");
        assertThat(ctx.trace.get(0).note).isEqualTo("1 samples re-generated");
    }
}

package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.opensearch.correct.ErrorClass;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.agents.opensearch.correct.ExecutionProblem;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.sql.engine.DatabaseEngine;
import org.junit.jupiter.api.Test;

/** OpenSearch-SQL's correction as its authors' code triggers it: errors and empty results only, at 0.2 + round/5. */
class CorrectAsAuthorsTest {
    private static final CandidateRunner RUNNER = new CandidateRunner(SpiderAgentParts.ROOM);
    private static final String FRENCH = "What are the names of the singers from France?";

    private static Candidate ran(String sql) {
        return RUNNER.run("concert_singer", new Candidate("x", sql));
    }

    @Test
    void aRightAnswerHoldingNullIsNotSentBackUnlessTheEarlierRuleIsAskedFor() {
        Candidate withNull = ran("SELECT Name, NULL AS Nickname FROM singer WHERE Country = 'France'");
        assertThat(ExecutionProblem.of(withNull, FRENCH, false, DatabaseEngine.SQLITE)).isEmpty();
        assertThat(ExecutionProblem.of(withNull, FRENCH, true, DatabaseEngine.SQLITE)).map(ExecutionProblem::kind).contains(ErrorClass.NULLS);
        assertThat(ExecutionProblem.of(ran("SELECT Name FROM singer WHERE Country = 'Mars'"), FRENCH, false, DatabaseEngine.SQLITE))
                .map(ExecutionProblem::kind).contains(ErrorClass.EMPTY);
        assertThat(ExecutionProblem.of(ran("SELECT Nom FROM singer"), FRENCH, false, DatabaseEngine.SQLITE)).isPresent();

        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL: SELECT Name FROM singer WHERE Country = 'France'");
        ExecutionCorrector asAuthors = new ExecutionCorrector(new AgentCall(llm), RUNNER, 3, false);
        assertThat(asAuthors.problem(withNull, FRENCH, "concert_singer")).isEmpty();
        assertThat(new ExecutionCorrector(new AgentCall(llm), RUNNER, 3, true).problem(withNull, FRENCH, "concert_singer")).isPresent();
    }

    @Test
    void eachRoundIsAskedAtTheAuthorsRisingTemperature() {
        // every answer fails (an unknown column), so all three rounds are asked
        java.util.concurrent.atomic.AtomicInteger answers = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> java.util.List.of(
                "#SQL: SELECT Nom" + answers.incrementAndGet() + " FROM singer"));
        ExecutionCorrector corrector = new ExecutionCorrector(new AgentCall(llm), RUNNER, 3, false);
        corrector.correct(SpiderAgentParts.SCHEMAS.promptFields(request()).with("values", "(none)"), FRENCH,
                "concert_singer", ran("SELECT Nom FROM singer"), new io.flowsql.pipeline.StageTrace("opensearch.correct")).join();
        assertThat(llm.requests()).extracting(ChatRequest::temperature)
                .containsExactly(0.2 + 1 / 5.0, 0.2 + 2 / 5.0, 0.2 + 3 / 5.0);
    }

    private static io.flowsql.pipeline.RequestContext request() {
        io.flowsql.pipeline.RequestContext ctx = new io.flowsql.pipeline.RequestContext();
        ctx.dbId = "concert_singer";
        ctx.question = FRENCH;
        return ctx;
    }
}

package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.agents.opensearch.correct.OpenSearchCorrectStage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageModes;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * OpenSearch-SQL's correction as its authors' code runs it: up to three rounds by error class, then a fresh generation
 * with the generator's prompt when the candidate still fails; the rounds-only mode (the earlier behaviour) per
 * question. Scripted model answers, real executions on Spider's concert_singer.
 */
class CorrectionRegenerationTest {
    private static final CandidateRunner RUNNER = new CandidateRunner(SpiderAgentParts.ROOM);
    private static final String FRENCH = "What are the names of the singers from France?";
    private static final String RIGHT = "SELECT Name FROM singer WHERE Country = 'France'";

    /** Corrections that keep naming a missing column (each a different one, so the rounds go on); generation is right. */
    private static ScriptedLlmClient stubbornCorrector(String generated) {
        return corrector("SELECT Nme%d FROM singer", generated);
    }

    /** Corrections from {@code correction} (numbered per answer, so each differs); generation answers {@code generated}. */
    private static ScriptedLlmClient corrector(String correction, String generated) {
        AtomicInteger n = new AtomicInteger();
        return ScriptedLlmClient.responds(r -> List.of(r.stage().equals("opensearch.generate")
                ? "#reason: r\n#columns: singer.Name\n#values: 'France'\n#SELECT: name\n#SQL-like: Show name\n#SQL: " + generated
                : "#reason: fixed.\n```sql\n" + correction.formatted(n.incrementAndGet()) + "\n```"));
    }

    private static OpenSearchCorrectStage stage(ScriptedLlmClient llm) {
        AgentCall call = new AgentCall(llm);
        return new OpenSearchCorrectStage(new ExecutionCorrector(call, RUNNER, 3), SpiderAgentParts.SCHEMAS,
                new QuestionValues(SpiderAgentParts.SCHEMAS, 6),
                new FreshGeneration(call, SpiderAgentParts.SCHEMAS, 6),
                OpenSearchCorrectStage.REGENERATE);
    }

    private static RequestContext failing() {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "regen";
        ctx.dbId = "concert_singer";
        ctx.question = FRENCH;
        ctx.candidates.add(RUNNER.run("concert_singer", new Candidate("opensearch#0", "SELECT Nme FROM singer")));
        return ctx;
    }

    @Test
    void threeRoundsThenAFreshGenerationThatReplacesTheCandidate() {
        ScriptedLlmClient llm = stubbornCorrector(RIGHT);
        RequestContext ctx = stage(llm).applyAs("opensearch.correct", failing()).join();

        assertThat(llm.requests()).extracting(ChatRequest::stage).containsExactly("opensearch.correct.schema",
                "opensearch.correct.schema", "opensearch.correct.schema", "opensearch.generate");
        ChatRequest fresh = llm.requests().get(3);
        assertThat(fresh.n()).isEqualTo(1);
        assertThat(fresh.temperature()).isEqualTo(FreshGeneration.TEMPERATURE);
        Candidate c = ctx.candidates.get(0);
        assertThat(c.sql).isEqualTo(RIGHT);
        assertThat(c.error).isNull();
        assertThat(c.rowCount).isPositive();
        assertThat(ctx.notes).containsEntry("correct.opensearch#0", "schema>schema>schema>regenerated>fixed")
                .containsEntry("correct.mode", "regenerate");
        assertThat(ctx.trace.get(0).llmCalls).isEqualTo(4);
    }

    @Test
    void aFreshGenerationThatDoesWorseThanTheBestAttemptIsNotTaken() {
        // the rounds reach a query that runs but returns nothing; the fresh generation fails to parse
        ScriptedLlmClient llm = corrector("SELECT Name FROM singer WHERE Country = 'Atlantis%d'", "SELECT Name FROM singer WHERE");
        RequestContext ctx = stage(llm).applyAs("opensearch.correct", failing()).join();
        assertThat(llm.requests()).extracting(ChatRequest::stage).containsExactly("opensearch.correct.schema",
                "opensearch.correct.empty", "opensearch.correct.empty", "opensearch.generate");
        assertThat(ctx.candidates.get(0).sql).as("an empty result is better than a syntax error")
                .startsWith("SELECT Name FROM singer WHERE Country = 'Atlantis");
        assertThat(ctx.notes.get("correct.opensearch#0")).isEqualTo("schema>empty>empty>regenerated>improved");
    }

    @Test
    void aQuestionCanAskForTheRoundsOnly() {
        ScriptedLlmClient llm = stubbornCorrector(RIGHT);
        RequestContext ctx = failing();
        StageModes.choose(ctx, "opensearch.correct", OpenSearchCorrectStage.ROUNDS);
        stage(llm).applyAs("opensearch.correct", ctx).join();
        assertThat(llm.requests()).extracting(ChatRequest::stage).containsOnly("opensearch.correct.schema").hasSize(3);
        assertThat(ctx.notes).containsEntry("correct.opensearch#0", "schema>schema>schema>kept")
                .containsEntry("correct.mode", "rounds");
    }

    @Test
    void aFineCandidateIsNeitherCorrectedNorRegenerated() {
        ScriptedLlmClient llm = stubbornCorrector(RIGHT);
        RequestContext ctx = failing();
        ctx.candidates.set(0, RUNNER.run("concert_singer", new Candidate("opensearch#0", RIGHT)));
        stage(llm).applyAs("opensearch.correct", ctx).join();
        assertThat(llm.requests()).isEmpty();
    }
}

package io.flowsql.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.access.AccessPolicies;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.ValueText;
import io.flowsql.agents.magsql.MagSqlRules;
import io.flowsql.agents.magsql.SubSqlRefiner;
import io.flowsql.agents.mmsql.MmsqlRules;
import io.flowsql.agents.mmsql.ReadingSqlGenerator;
import io.flowsql.agents.mmsql.ReadingsStage;
import io.flowsql.agents.opensearch.align.AlignmentRules;
import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.agents.sqlfix.FailureMemory;
import io.flowsql.agents.sqlfix.Refinement;
import io.flowsql.agents.sqlfix.SqlRefiner;
import io.flowsql.agents.sqlfix.SqlReviewStage;
import io.flowsql.agents.sqlfix.SqlReviewer;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.Interpretation;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.compare.ComparisonMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every step that runs model-written SQL inside a stage runs it through the question's {@link StageSql}: under a
 * table-level policy ({@code tenants.team.tables.concert_singer=singer}) SQL reading {@code stadium} never reaches the
 * database (real Spider SQLite file). The agent gets the refusal as a database error naming only the table it wrote
 * ({@code table stadium is not available}) and goes on; no row of the hidden table reaches a prompt or the answer.
 * Each case fails without the gate: the hidden table's SQL runs fine there, so the agent sees rows and does not retry.
 */
class StageSqlGateTest {
    private static final String DB = "concert_singer";
    private static final String TEAM = "team";
    private static final String ADMIN = "admin";
    private static final String HIDDEN = "SELECT Name FROM stadium";
    /** A name only the hidden table holds. */
    private static final String HIDDEN_ROW = "Stark's Park";
    private static final String ALLOWED = "SELECT Name FROM singer";
    private static final String UNAVAILABLE = "table stadium is not available";

    private static final AccessPolicies POLICIES = AccessPolicies.fromOptions(Map.of(
            TEAM + ".databases", DB,
            TEAM + ".tables." + DB, "singer",
            ADMIN + ".databases", DB), "");
    private static final StageSql GATED = new StageSql(new io.flowsql.access.DataDoors(
            SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES, POLICIES));

    private static RequestContext request(String tenant, String question) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r1";
        ctx.dbId = DB;
        ctx.tenant = tenant;
        ctx.question = question;
        return ctx;
    }

    private static String prompts(ScriptedLlmClient llm) {
        StringBuilder all = new StringBuilder();
        for (ChatRequest r : llm.requests()) {
            r.messages().forEach(m -> all.append(m.content()).append('\n'));
        }
        return all.toString();
    }

    @Test
    void theGateRefusesAHiddenTableAsADatabaseErrorAndRunsAnAllowedOne() {
        var refused = GATED.execute(new StageSql.Scope(DB, TEAM, null), "SELECT s.Name FROM singer s JOIN stadium t ON 1 = 1");
        assertThat(refused.ok()).isFalse();
        assertThat(refused.error().toString()).isEqualTo("INVALID_SQL: " + UNAVAILABLE);
        assertThat(GATED.execute(new StageSql.Scope(DB, TEAM, null), ALLOWED).rowCount()).isEqualTo(6);
        assertThat(GATED.execute(new StageSql.Scope(DB, ADMIN, null), HIDDEN).ok()).as("a tenant with the whole database").isTrue();
        assertThat(GATED.execute(new StageSql.Scope(DB, null, null), ALLOWED).ok())
                .as("no tenant under a policy: nothing runs").isFalse();
        assertThat(StageSql.open(SpiderAgentParts.EXECUTOR).execute(new StageSql.Scope(DB, null, null), HIDDEN).ok())
                .as("no policy at all").isTrue();
    }

    @Test
    void magSqlSubSqlRefinerIsToldTheTableIsNotAvailable() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL: " + ALLOWED);
        RequestContext ctx = request(TEAM, "Names?");
        MagSqlRules rules = MagSqlRules.from(AgentSettings.defaults()).forRequest(ctx);
        SubSqlRefiner.Frame frame = new SubSqlRefiner.Frame(SpiderAgentParts.SCHEMAS.promptFields(ctx),
                SpiderAgentParts.VIEWS.full(SpiderAgentParts.SCHEMAS.schema(ctx)), ValueText.forPrompt(List.of()), rules, TEAM);
        SubSqlRefiner.Refined refined = new SubSqlRefiner(new AgentCall(llm), GATED)
                .refine(frame, "Names?", HIDDEN, new StageTrace("magsql.generate")).join();
        assertThat(refined.rounds()).isEqualTo(1);
        assertThat(refined.sql()).isEqualTo(ALLOWED);
        assertThat(prompts(llm)).contains(UNAVAILABLE).doesNotContain(HIDDEN_ROW);
    }

    @Test
    void sqlFixReviewFlagsTheSqlWithoutShowingTheModelItsRows() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(
                "```json\n{\"explanation\": [], \"verdict\": \"correct\", \"reasons\": []}\n```");
        RequestContext ctx = request(TEAM, "Which stadiums are there?");
        ctx.finalSql = HIDDEN;
        new SqlReviewStage(new SqlReviewer(new AgentCall(llm)), GATED, c -> SpiderAgentParts.SCHEMAS.promptFields(c))
                .applyAs("sqlfix.review", ctx).join();
        assertThat(ctx.trace.get(0).note).startsWith("flagged").contains(UNAVAILABLE);
        assertThat(llm.requests()).as("a failing SQL is flagged without asking the model").isEmpty();
        assertThat(ctx.status).isNull();
    }

    @Test
    void sqlFixRefinerCountsTheHiddenTableAsAFailedAttempt() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(
                "#choice: repair\n```sql\n" + HIDDEN + "\n```",
                "#choice: repair\n```sql\n" + ALLOWED + "\n```");
        RequestContext ctx = request(TEAM, "Names?");
        FailureMemory failures = FailureMemory.empty();
        Optional<Refinement> refined = new SqlRefiner(new AgentCall(llm), GATED, 3)
                .refine(SpiderAgentParts.SCHEMAS.promptFields(ctx), TEAM, "SELECT 1", List.of("wrong"), List.of(),
                        failures, new StageTrace("sqlfix.refine")).join();
        assertThat(refined).isPresent();
        assertThat(refined.get().sql()).isEqualTo(ALLOWED);
        assertThat(refined.get().attempts()).isEqualTo(2);
        assertThat(failures.render()).contains(UNAVAILABLE);
        assertThat(prompts(llm)).doesNotContain(HIDDEN_ROW);
    }

    @Test
    void mmsqlReadingOnAHiddenTableFailsAsASqlError() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("```sql\n" + HIDDEN + "\n```");
        RequestContext ctx = request(TEAM, "What about the names?");
        ctx.questionType = "ambiguous";
        ctx.status = "clarification";
        ctx.interpretations.add(new Interpretation("Which stadium names are there?", null));
        new ReadingsStage(new ReadingSqlGenerator(new AgentCall(llm)), null, GATED,
                c -> SpiderAgentParts.SCHEMAS.promptFields(c), new MmsqlRules(true, true, false, false))
                .applyAs("mmsql.readings", ctx).join();
        assertThat(ctx.interpretations.get(0).sql).isEqualTo(HIDDEN);
        assertThat(ctx.interpretations.get(0).error).isEqualTo("INVALID_SQL: " + UNAVAILABLE);
    }

    @Test
    void valueAlignmentProbesOnlyWhatTheTenantMayRead() {
        ConsistencyAligner aligner = AlignmentRules.fromSettings(AgentSettings.defaults(), GATED);
        DatabaseSchema schema = SpiderAgentParts.CATALOG.schema(DB);
        String hidden = "SELECT Name FROM stadium WHERE Location = 'raith rover'";
        // the admin's alignment first: an aligner that remembered outcomes by SQL alone would hand it to the team
        assertThat(aligner.align(hidden, schema, new StageSql.Scope(DB, ADMIN, null)).sql()).contains("'Raith Rovers'");
        ConsistencyAligner.Aligned team = aligner.align(hidden, schema, new StageSql.Scope(DB, TEAM, null));
        assertThat(team.sql()).isEqualTo(hidden);
        assertThat(team.appliedRules()).doesNotContain("value");
        assertThat(aligner.align("SELECT Name FROM singer WHERE Country = 'netherland'", schema,
                new StageSql.Scope(DB, TEAM, null)).sql()).as("an allowed table is still probed").contains("'Netherlands'");
    }

    /**
     * By construction: no agent class holds the executor itself, so no step can run SQL past the gate. The one
     * exception renders sample rows of the tables a prompt shows (SQL the project writes, over the tenant's schema).
     */
    @Test
    void noAgentHoldsTheExecutorItself() throws IOException {
        List<String> holders;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/flowsql/agents"))) {
            holders = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return Files.readString(f).contains("SafeExecutor");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertThat(holders).containsExactly("SchemaViews.java");
    }

    @Test
    void aCandidateOnAHiddenTableFailsWithTheSameFeedback() {
        CandidateRunner runner = new CandidateRunner(new io.flowsql.access.DataDoors(SpiderAgentParts.EXECUTOR, null, POLICIES),
                ComparisonMode.SPIDER_TEST_SUITE, 5);
        Candidate c = runner.run(DB, TEAM, new Candidate("gen", HIDDEN), null);
        assertThat(c.error).isEqualTo("INVALID_SQL: " + UNAVAILABLE);
        assertThat(c.preview).isEmpty();
        assertThat(runner.run(DB, ADMIN, new Candidate("gen", HIDDEN), null).error).isNull();
    }
}

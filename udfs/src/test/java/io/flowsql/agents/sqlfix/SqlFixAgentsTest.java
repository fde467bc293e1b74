package io.flowsql.agents.sqlfix;

import io.flowsql.access.DataDoors;
import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The three SQLFixAgent agents against scripted model outputs (good, malformed, malformed twice) on the real concert_singer database. */
class SqlFixAgentsTest {
    private static final String DB = "concert_singer";
    private static final String QUESTION = "How many singers are older than 40?";
    private static SqliteSafeExecutor executor;

    @BeforeAll
    static void open() {
        executor = new SqliteSafeExecutor(SpiderData.locator(), SqlExecutorConfig.defaults());
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    private static PromptFields frame() {
        return SpiderFrames.frame(DB, QUESTION, "(no earlier turns)");
    }

    @Test
    void reviewerFlagsAFailingSqlWithoutAskingTheModel() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("never asked");
        String bad = "SELECT count(*) FROM singer WHERE agee > 40";
        ReviewVerdict v = new SqlReviewer(new AgentCall(llm)).review(frame(), bad, executor.execute(DB, bad), new StageTrace("t")).join();
        assertThat(v.flagged()).isTrue();
        assertThat(v.byExecution()).isTrue();
        assertThat(v.reasons().get(0)).startsWith(SqlReviewer.FAILED_PREFIX).contains("agee");
        assertThat(llm.requests()).isEmpty();
    }

    @Test
    void reviewerReadsAVerdictAfterOneReask() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder("I think it is fine.",
                "```json\n{\"explanation\": [{\"clause\": \"WHERE age < 40\", \"meaning\": \"younger\", \"consistent\": false}],"
                        + " \"verdict\": \"flagged\", \"reasons\": [\"reversed comparison\"]}\n```");
        String sql = "SELECT count(*) FROM singer WHERE age < 40";
        StageTrace trace = new StageTrace("sqlfix.review");
        ReviewVerdict v = new SqlReviewer(new AgentCall(llm)).review(frame(), sql, executor.execute(DB, sql), trace).join();
        assertThat(v.flagged()).isTrue();
        assertThat(v.reasons()).containsExactly("reversed comparison");
        assertThat(trace.llmCalls).isEqualTo(2);
        String user = llm.requests().get(0).messages().get(1).content();
        assertThat(user).contains("Question: " + QUESTION).contains(sql).contains("Execution: 1 row").contains("CREATE TABLE");
        assertThat(llm.requests().get(0).stage()).isEqualTo("sqlfix.review");
    }

    @Test
    void reviewerFailsTypedOnTwoUnreadableAnswers() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("```json\n{\"verdict\": \"maybe\"}\n```");
        String sql = "SELECT count(*) FROM singer";
        assertThatThrownBy(() -> new SqlReviewer(new AgentCall(llm)).review(frame(), sql, executor.execute(DB, sql), new StageTrace("t")).join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(LlmException.class)
                .satisfies(e -> assertThat(((LlmException) e.getCause()).kind()).isEqualTo(LlmErrorKind.UNPARSEABLE_OUTPUT));
        assertThat(llm.requests()).hasSize(2);
    }

    @Test
    void crafterWritesOneCandidatePerParaphraseAndKeepsFailedGenerations() {
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> {
            String user = r.messages().get(1).content();
            if (r.stage().equals("sqlfix.craft.paraphrase")) {
                return List.of("```json\n{\"paraphrases\": [\"Count singers with age above 40.\", \"Number of singers over 40?\", \"x\"]}\n```");
            }
            return List.of(user.contains("Question: Count singers") ? "#reason: r\n```sql\nSELECT count(*) FROM singer WHERE age > 40\n```"
                    : "no sql here");
        });
        List<CraftedQuery> crafted = new QueryCrafter(new AgentCall(llm))
                .craft(frame(), "SELECT count(*) FROM singer WHERE age < 40", List.of("reversed"), 2, new StageTrace("t")).join();
        assertThat(crafted).hasSize(2);
        assertThat(crafted.get(0).sql()).isEqualTo("SELECT count(*) FROM singer WHERE age > 40");
        assertThat(crafted.get(1).hasSql()).isFalse();
        assertThat(crafted.get(1).error()).contains("UNPARSEABLE_OUTPUT");
        ChatRequest generate = llm.requests().stream().filter(r -> r.stage().equals("sqlfix.craft.generate")).findFirst().orElseThrow();
        assertThat(generate.messages().get(1).content()).contains("Original question: " + QUESTION);
        assertThat(llm.requests().get(0).messages().get(1).content()).contains("Paraphrases wanted: 2");
    }

    @Test
    void refinerRetriesWithTheFailureInItsPromptAndRemembersTheRepair() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(
                "#choice: repair\n#wrong: reversed\n```sql\nSELECT count(*) FROM singer WHERE agee > 40\n```",
                "#choice: sqlfix.craft#1\n#wrong: the comparison was reversed\n```sql\nSELECT count(*) FROM singer WHERE age > 40\n```");
        RepairMemory memory = RepairMemory.inMemory();
        Candidate crafted = new Candidate("sqlfix.craft#1", "SELECT count(*) FROM singer WHERE age > 40");
        crafted.executed = true;
        crafted.rowCount = 1;
        FailureMemory failures = FailureMemory.empty();
        String flagged = "SELECT count(*) FROM singer WHERE age < 40";
        Optional<Refinement> refined = new SqlRefiner(new AgentCall(llm), new StageSql(DataDoors.open(executor, null).holding(memory)), 3)
                .refine(frame(), null, flagged, List.of("reversed"), List.of(crafted), failures, new StageTrace("t")).join();
        assertThat(refined).isPresent();
        assertThat(refined.get().sql()).isEqualTo("SELECT count(*) FROM singer WHERE age > 40");
        assertThat(refined.get().choice()).isEqualTo("sqlfix.craft#1");
        assertThat(refined.get().attempts()).isEqualTo(2);
        assertThat(failures.attempts()).singleElement().satisfies(a -> assertThat(a.sql()).contains("agee"));
        String secondPrompt = llm.requests().get(1).messages().get(1).content();
        assertThat(secondPrompt).contains("agee > 40 ->").contains("- sqlfix.craft#1: SELECT count(*) FROM singer WHERE age > 40 -> 1 row");
        assertThat(memory.similar(QUESTION, flagged, 1)).singleElement()
                .satisfies(r -> assertThat(r.whatWasWrong()).isEqualTo("the comparison was reversed"));
    }

    /**
     * The paper crafts paraphrases per attempt: after the first repair fails, the crafter is asked again, told why, and
     * the second attempt is shown the fresh candidate with what it returned.
     */
    @Test
    void eachAttemptAfterTheFirstGetsFreshParaphrasesToldWhyTheLastFailed() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder(
                "#choice: repair\n#wrong: reversed\n```sql\nSELECT count(*) FROM singer WHERE agee > 40\n```",
                "{\"paraphrases\": [\"Count the singers whose age is above 40.\"]}",
                "```sql\nSELECT count(*) FROM singer WHERE age > 40\n```",
                "#choice: sqlfix.craft@2#1\n#wrong: reversed\n```sql\nSELECT count(*) FROM singer WHERE age > 40\n```");
        AgentCall call = new AgentCall(llm);
        AttemptCrafting perAttempt = new AttemptCrafting(new QueryCrafter(call), new io.flowsql.pipeline.CandidateRunner(DataDoors.open(executor, null)), 1);
        Optional<Refinement> refined = new SqlRefiner(call, new StageSql(DataDoors.open(executor, null).holding(RepairMemory.inMemory())), 3, false,
                perAttempt)
                .refine(frame(), null, "SELECT count(*) FROM singer WHERE age < 40", List.of("reversed comparison"),
                        List.of(), FailureMemory.empty(), new StageTrace("t")).join();
        assertThat(refined).isPresent();
        assertThat(refined.get().choice()).isEqualTo("sqlfix.craft@2#1");
        assertThat(refined.get().attempts()).isEqualTo(2);
        assertThat(llm.requests()).extracting(ChatRequest::stage)
                .containsExactly("sqlfix.refine", "sqlfix.craft.paraphrase", "sqlfix.craft.generate", "sqlfix.refine");
        assertThat(llm.requests().get(1).messages().get(1).content())
                .contains("reversed comparison", "the repair SELECT count(*) FROM singer WHERE agee > 40 failed");
        assertThat(llm.requests().get(0).messages().get(1).content()).doesNotContain("sqlfix.craft@2#1");
        assertThat(llm.requests().get(3).messages().get(1).content())
                .contains("- sqlfix.craft@2#1: SELECT count(*) FROM singer WHERE age > 40 -> 1 row");
    }

    @Test
    void refinerGivesUpAfterItsAttempts() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#choice: repair\n```sql\nSELECT nope FROM singer\n```");
        Optional<Refinement> refined = new SqlRefiner(new AgentCall(llm), new StageSql(DataDoors.open(executor, null).holding(RepairMemory.inMemory())), 2)
                .refine(frame(), null, "SELECT 1", List.of("r"), List.of(), FailureMemory.empty(), new StageTrace("t")).join();
        assertThat(refined).isEmpty();
        assertThat(llm.requests()).hasSize(2);
    }
}

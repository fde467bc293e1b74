package io.flowsql.agents.opensearch;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.opensearch.align.AlignmentRules;
import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.agents.opensearch.align.model.AgentChecks;
import io.flowsql.agents.opensearch.align.model.AgentChecks.KnownValue;
import io.flowsql.agents.opensearch.align.model.FunctionChecks;
import io.flowsql.agents.opensearch.align.model.ModelAligner;
import io.flowsql.agents.opensearch.align.model.StyleChecks;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.EmbeddingRequest;
import io.flowsql.llm.EmbeddingResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.llm.TokenUsage;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageModes;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.retrieval.EmbeddingRetriever;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * OpenSearch-SQL's alignment by the model: the checks of each step (style, function, agent) on real Spider SQL, a
 * call with the step's own prompt only when a check fired, the model's SQL adopted, failures keeping the candidate,
 * and the stage's two modes chosen per question.
 */
class ModelAlignmentTest {
    /** The question's door (a room holding no embeddings: literals are compared by text). */
    private static final io.flowsql.access.DataDoor CONCERT_DOOR = SpiderAgentParts.ROOM.door("concert_singer", null);

    private static final Set<String> CONCERT = Set.of("singer", "concert", "stadium", "singer_in_concert");
    private static final String FIXED = "#reason: resolved.\n#SQL:\n```sql\nSELECT Name FROM singer WHERE Age IS NOT NULL ORDER BY Age LIMIT 1\n```";

    @Test
    void styleChecksFlagNestedMaxLimitWithoutNullGuardAndStarAndJoinConcatenatedColumns() {
        var nested = StyleChecks.check("SELECT T1.Name FROM singer AS T1 WHERE T1.Age = (SELECT MAX(Age) FROM singer)");
        assertThat(nested.problems()).singleElement().asString()
                .contains("use `ORDER BY singer.Age DESC LIMIT 1` instead of the nested query");
        assertThat(StyleChecks.check("SELECT Name FROM singer ORDER BY Age LIMIT 1").problems()).singleElement().asString()
                .contains("add `WHERE Age IS NOT NULL`");
        assertThat(StyleChecks.check("SELECT Name FROM singer ORDER BY Age DESC LIMIT 1").problems())
                .as("descending: the authors' check does not fire").isEmpty();
        assertThat(StyleChecks.check("SELECT Country FROM singer GROUP BY Country ORDER BY COUNT(*) LIMIT 1").problems())
                .as("an aggregate order").isEmpty();
        assertThat(StyleChecks.check("SELECT singer.* FROM singer").problems()).singleElement().asString().contains("singer.*");
        var concat = StyleChecks.check("SELECT Name || ' ' || Country FROM singer");
        assertThat(concat.sql()).isEqualTo("SELECT Name , Country FROM singer");
        assertThat(concat.rewrites()).containsExactly("concat-to-columns");
        assertThat(concat.asksTheModel()).isFalse();
    }

    @Test
    void functionChecksRewriteCountCaseAndYearsAndFlagOrJoinsAndAggregateOrders() {
        var fixed = FunctionChecks.check("SELECT COUNT(CASE WHEN Age > 30 THEN 1 ELSE 0 END) FROM singer "
                + "WHERE strftime('%Y', x) = 2014");
        assertThat(fixed.sql()).isEqualTo("SELECT SUM(CASE WHEN Age > 30 THEN 1 ELSE 0 END) FROM singer "
                + "WHERE strftime('%Y', x) = '2014'");
        assertThat(fixed.rewrites()).containsExactly("count-case-to-sum", "quote-year");
        var join = FunctionChecks.check("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON "
                + "T1.Singer_ID = T2.Singer_ID OR T1.Singer_ID = T2.concert_ID ORDER BY MAX(T2.concert_ID) DESC LIMIT 1");
        assertThat(join.problems()).hasSize(2);
        assertThat(join.problems().get(0)).contains("OR or IN");
        assertThat(join.problems().get(1)).contains("incorrect use of MAX");
        assertThat(FunctionChecks.check("SELECT Name FROM singer WHERE Age > 30").problems()).isEmpty();
    }

    @Test
    void agentChecksFindValuesHeldByAnotherColumnAndTakeNearIdenticalValues() {
        List<KnownValue> known = List.of(KnownValue.parse("singer.Country = 'France'"), KnownValue.parse("singer.Name = 'Joe Sharp'"));
        var wrongColumn = AgentChecks.check("SELECT Name FROM singer WHERE Name = 'France'", CONCERT, known, Map.of());
        assertThat(wrongColumn.problems()).containsExactly(
                "`singer.Name = 'France'` does not exist in the database; it holds singer.Country = 'France', "
                        + "singer.Name = 'Joe Sharp'");
        var near = AgentChecks.check("SELECT T1.Name FROM singer AS T1 WHERE T1.Country = 'france'", CONCERT, known,
                Map.of("france", "France"));
        assertThat(near.sql()).isEqualTo("SELECT T1.Name FROM singer AS T1 WHERE T1.Country = 'France'");
        assertThat(near.problems()).isEmpty();
        assertThat(AgentChecks.check("SELECT Name FROM singer WHERE Country = 'France'", CONCERT, known, Map.of())
                .asksTheModel()).isFalse();
        assertThat(AgentChecks.unknownLiterals("SELECT Name FROM singer WHERE Country = 'france' AND Year = '2014'",
                CONCERT, known)).as("digits are left alone").containsExactly("france");
    }

    @Test
    void aStepAsksTheModelOnlyWhenItsChecksFireAndAdoptsTheAnswer() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(FIXED);
        ModelAligner aligner = new ModelAligner(new AgentCall(llm));
        PromptFields fields = fields();

        var clean = aligner.align(CONCERT_DOOR, fields, "SELECT Name FROM singer WHERE Age > 30", CONCERT, List.of(), trace()).join();
        assertThat(clean.changed()).isFalse();
        assertThat(llm.requests()).isEmpty();

        StageTrace trace = trace();
        var aligned = aligner.align(CONCERT_DOOR, fields, "SELECT Name FROM singer ORDER BY Age LIMIT 1", CONCERT, List.of(), trace).join();
        assertThat(aligned.sql()).isEqualTo("SELECT Name FROM singer WHERE Age IS NOT NULL ORDER BY Age LIMIT 1");
        assertThat(aligned.appliedRules()).containsExactly("style:model");
        assertThat(llm.requests()).singleElement().satisfies(r -> {
            assertThat(r.stage()).isEqualTo("opensearch.align.style");
            assertThat(r.messages().get(r.messages().size() - 1).content())
                    .contains("SQL: SELECT Name FROM singer ORDER BY Age LIMIT 1")
                    .contains("- `ORDER BY Age` with LIMIT: add `WHERE Age IS NOT NULL`");
        });
        assertThat(trace.llmCalls).isEqualTo(1);
    }

    @Test
    void eachStepHasItsOwnPromptAndAFailedCallKeepsTheCandidate() {
        // a model that keeps the query as it is: every step's checks still fire, so each step asks
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> List.of("#reason: kept\n#SQL:\n```sql\n"
                + r.messages().get(r.messages().size() - 1).content().lines().filter(l -> l.startsWith("SQL: "))
                        .findFirst().orElseThrow().substring(5) + "\n```"));
        ModelAligner aligner = new ModelAligner(new AgentCall(llm));
        String sql = "SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID "
                + "OR T1.Singer_ID = T2.concert_ID WHERE T1.Name = 'France' ORDER BY T1.Age LIMIT 1";
        List<KnownValue> known = List.of(KnownValue.parse("singer.Country = 'France'"));
        aligner.align(CONCERT_DOOR, fields(), sql, CONCERT, known, trace()).join();
        assertThat(llm.requests()).extracting(ChatRequest::stage)
                .containsExactly("opensearch.align.style", "opensearch.align.function", "opensearch.align.agent");

        ModelAligner failing = new ModelAligner(new AgentCall(ScriptedLlmClient.alwaysFails(LlmErrorKind.SERVER_ERROR)));
        var kept = failing.align(CONCERT_DOOR, fields(), "SELECT Name FROM singer ORDER BY Age LIMIT 1", CONCERT, List.of(), trace()).join();
        assertThat(kept.sql()).isEqualTo("SELECT Name FROM singer ORDER BY Age LIMIT 1");
        assertThat(kept.changed()).isFalse();
    }

    @Test
    void theAgentStepEmbedsUnknownLiteralsToTakeTheDatabaseValueWithoutACall() {
        ScriptedLlmClient chat = ScriptedLlmClient.alwaysResponds(FIXED);
        LlmClient llm = new LlmClient() {
            @Override
            public CompletableFuture<ChatResponse> chat(ChatRequest request) {
                return chat.chat(request);
            }

            @Override
            public CompletableFuture<EmbeddingResponse> embed(EmbeddingRequest request) {
                // case-blind letter counts: 'france' and 'France' are the same vector
                List<float[]> vectors = request.inputs().stream().map(t -> {
                    float[] v = new float[26];
                    t.toLowerCase().chars().filter(c -> c >= 'a' && c <= 'z').forEach(c -> v[c - 'a']++);
                    return v;
                }).toList();
                return CompletableFuture.completedFuture(new EmbeddingResponse(vectors, TokenUsage.NONE, "letters",
                        false, 0, 0, false));
            }
        };
        ModelAligner aligner = new ModelAligner(new AgentCall(llm));
        StageTrace trace = trace();
        var aligned = aligner.align(SpiderAgentParts.ROOM.holding(new EmbeddingRetriever(llm)).door("concert_singer", null), fields(), "SELECT Name FROM singer WHERE Country = 'france'", CONCERT,
                List.of(KnownValue.parse("singer.Country = 'France'")), trace).join();
        assertThat(aligned.sql()).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(aligned.appliedRules()).containsExactly("agent:value 'france' -> 'France'");
        assertThat(chat.requests()).isEmpty();
        assertThat(trace.embeddingCalls).as("the embedding call").isEqualTo(1);
        assertThat(trace.llmCalls).as("no chat call").isZero();
    }

    @Test
    void theStageRunsByTheModelByDefaultAndByTheRulesWhenTheQuestionAsks() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(FIXED);
        OpenSearchAlignStage stage = new OpenSearchAlignStage(
                AlignmentRules.fromSettings(AgentSettings.defaults(), SpiderAgentParts.SQL),
                new ModelAligner(new AgentCall(llm)), null, SpiderAgentParts.SCHEMAS,
                new QuestionValues(SpiderAgentParts.SCHEMAS, 6), OpenSearchAlignStage.MODEL);

        RequestContext byModel = stage.applyAs("opensearch.align", question()).join();
        assertThat(byModel.notes).containsEntry("align.mode", "model").containsEntry("align.opensearch#0", "style:model")
                .containsEntry("align.opensearch#1", "style:model");
        assertThat(llm.requests()).as("the two candidates share their SQL: aligned once").hasSize(1);
        assertThat(byModel.candidates).allSatisfy(c -> assertThat(c.sql)
                .isEqualTo("SELECT Name FROM singer WHERE Age IS NOT NULL ORDER BY Age LIMIT 1"));

        RequestContext rulesAsked = question();
        StageModes.choose(rulesAsked, "opensearch.align", OpenSearchAlignStage.RULES);
        RequestContext byRules = stage.applyAs("opensearch.align", rulesAsked).join();
        assertThat(byRules.notes).containsEntry("align.mode", "rules").containsEntry("align.opensearch#0", "not-null-on-order-by");
        assertThat(llm.requests()).as("no call in rules mode").hasSize(1);

        RequestContext unknown = question();
        StageModes.choose(unknown, "opensearch.align", "guess");
        assertThat(stage.applyAs("opensearch.align", unknown).join().error).contains("unknown alignment mode 'guess'");
    }

    private static RequestContext question() {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "align";
        ctx.dbId = "concert_singer";
        ctx.question = "What is the name of the youngest singer?";
        ctx.candidates.add(new Candidate("opensearch#0", "SELECT Name FROM singer ORDER BY Age LIMIT 1"));
        ctx.candidates.add(new Candidate("opensearch#1", "SELECT Name FROM singer  ORDER BY Age LIMIT 1"));
        return ctx;
    }

    /** The checks after a model reply run on the stage's work pool (given to the trace), not on the reply's thread. */
    @Test
    void theStepsAfterAReplyCheckOnTheStagesWorkPool() {
        try (io.flowsql.agents.CountingWorkPool pool = new io.flowsql.agents.CountingWorkPool()) {
            StageTrace trace = trace();
            trace.work = pool;
            var aligned = new ModelAligner(new AgentCall(ScriptedLlmClient.alwaysResponds(FIXED))).align(CONCERT_DOOR,
                    fields(), "SELECT Name FROM singer ORDER BY Age LIMIT 1", CONCERT, List.of(), trace).join();

            assertThat(aligned.sql()).isEqualTo("SELECT Name FROM singer WHERE Age IS NOT NULL ORDER BY Age LIMIT 1");
            assertThat(pool.handed()).as("the function and agent steps").isEqualTo(2);
        }
    }

    private static PromptFields fields() {
        RequestContext ctx = question();
        return SpiderAgentParts.SCHEMAS.promptFields(ctx).with("values", "(none)");
    }

    private static StageTrace trace() {
        return new StageTrace("opensearch.align");
    }
}

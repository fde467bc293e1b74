package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.StageOutcome;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class AgentCallTest {
    private final ChatRequest request = ChatRequest.of("magsql.generate.first",
            List.of(ChatMessage.system("### Task: magsql.generate.first"), ChatMessage.user("Question: q")));

    @Test
    void parsesAGoodAnswerWithOneCallAndMetersIt() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("```sql\nSELECT 1\n```");
        StageTrace trace = new StageTrace("magsql.generate");
        String sql = new AgentCall(llm).ask(request, ModelOutput::sql, trace).join();
        assertThat(sql).isEqualTo("SELECT 1");
        assertThat(trace.llmCalls).isEqualTo(1);
        assertThat(trace.promptTokens).isEqualTo(10);
        assertThat(trace.simulated).isTrue();
        assertThat(trace.model).isEqualTo("scripted");
    }

    @Test
    void reasksOnceWithTheBadAnswerAndACorrection() {
        ScriptedLlmClient llm = ScriptedLlmClient.respondsInOrder("I would select the ones", "#SQL: SELECT 2");
        StageTrace trace = new StageTrace("magsql.generate");
        assertThat(new AgentCall(llm).ask(request, ModelOutput::sql, trace).join()).isEqualTo("SELECT 2");
        ChatRequest second = llm.requests().get(1);
        assertThat(second.stage()).isEqualTo("magsql.generate.first");
        assertThat(second.messages()).hasSize(4);
        assertThat(second.messages().get(2)).isEqualTo(ChatMessage.assistant("I would select the ones"));
        assertThat(second.messages().get(3).content()).contains("could not be read");
        assertThat(trace.llmCalls).isEqualTo(2);
    }

    @Test
    void failsTypedAfterTheSecondUnreadableAnswer() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("no idea");
        CompletableFuture<String> answer = new AgentCall(llm).ask(request, ModelOutput::sql, new StageTrace("s"));
        assertThatThrownBy(answer::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(LlmException.class)
                .satisfies(e -> assertThat(((LlmException) e).kind()).isEqualTo(LlmErrorKind.UNPARSEABLE_OUTPUT));
        assertThat(llm.requests()).hasSize(2);
    }

    @Test
    void samplesKeepOnlyTheReadableChoices() {
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> List.of("#SQL: SELECT 1", "prose", "```sql\nSELECT 3\n```"));
        List<String> sqls = new AgentCall(llm).askSamples(request.withSampling(0.8, 3), ModelOutput::sql, new StageTrace("s")).join();
        assertThat(sqls).containsExactly("SELECT 1", "SELECT 3");
        assertThat(llm.requests().get(0).n()).isEqualTo(3);
    }

    @Test
    void aNamedStageTurnsAFailureIntoAFailedContextWithItsKind() {
        RequestContext ctx = new RequestContext();
        new NamedStage("magsql.decompose", (c, trace) -> CompletableFuture.failedFuture(
                new LlmException(LlmErrorKind.UNPARSEABLE_OUTPUT, "bad"))).apply(ctx).join();
        assertThat(ctx.status).isEqualTo("failed");
        assertThat(ctx.failedStage).isEqualTo("magsql.decompose");
        assertThat(ctx.failure).isEqualTo(FailureKind.MODEL);
        assertThat(ctx.error).contains("UNPARSEABLE_OUTPUT");
        assertThat(ctx.trace).singleElement().satisfies(t -> {
            assertThat(t.stage).isEqualTo("magsql.decompose");
            assertThat(t.outcome).isEqualTo(StageOutcome.FAILED);
            assertThat(t.failure).isEqualTo(FailureKind.MODEL);
            assertThat(t.modelError).isEqualTo(LlmErrorKind.UNPARSEABLE_OUTPUT);
        });

        RequestContext thrown = new RequestContext();
        new NamedStage("opensearch.vote", (c, trace) -> {
            throw new IllegalStateException("no candidates to vote on");
        }).apply(thrown).join();
        assertThat(thrown.failure).isEqualTo(FailureKind.INTERNAL);
        assertThat(thrown.error).isEqualTo("IllegalStateException: no candidates to vote on");

        RequestContext settled = new RequestContext();
        new NamedStage("mmsql.detect", (c, trace) -> {
            c.status = "unanswerable";
            return CompletableFuture.completedFuture(null);
        }).apply(settled).join();
        new NamedStage("mmsql.readings", (c, trace) -> CompletableFuture.completedFuture(null)).apply(settled).join();
        assertThat(settled.trace).extracting(t -> t.outcome)
                .containsExactly(StageOutcome.SETTLED, StageOutcome.COMPLETED);
        assertThat(settled.failure).isNull();
    }

    @Test
    void templatesNameEveryMissingPlaceholder() {
        PromptTemplate template = PromptTemplate.of("t", "Database: {{db_id}}\nQuestion: {{question}} {{ evidence }}");
        assertThat(template.placeholders()).containsExactly("db_id", "question", "evidence");
        assertThatThrownBy(() -> template.render(PromptFields.none().with("db_id", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[evidence, question]");
        assertThat(template.render(PromptFields.none().with("db_id", "a$1").with("question", "q").with("evidence", "e")))
                .isEqualTo("Database: a$1\nQuestion: q e");
        assertThat(PromptPair.load("magsql/decompose").task()).isEqualTo("magsql.decompose");
    }
}

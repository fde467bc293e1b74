package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.llm.TokenUsage;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A reply cut at max_tokens is asked again with a larger budget and, when still cut, counted in the trace. */
class TruncatedRepliesTest {
    private final ChatRequest generate = ChatRequest.of("opensearch.generate",
            List.of(ChatMessage.system("### Task: opensearch.generate"), ChatMessage.user("Question: q")))
            .withMaxTokens(1000);

    /** Choices: the first {@code whole} answered, the rest cut at max_tokens, with usage 100 tokens per choice. */
    private static ChatResponse answer(int whole, int cut) {
        List<String> choices = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < whole; i++) {
            choices.add("#SQL: SELECT " + i);
            reasons.add("stop");
        }
        for (int i = 0; i < cut; i++) {
            choices.add("#reason: a long chain of thou");
            reasons.add(ChatResponse.LENGTH);
        }
        return new ChatResponse(choices, new TokenUsage(10, 100 * (whole + cut), false), "scripted", true, 0, 0, false,
                reasons);
    }

    private static ScriptedLlmClient inTurn(ChatResponse... replies) {
        List<ChatResponse> script = Collections.synchronizedList(new ArrayList<>(List.of(replies)));
        return ScriptedLlmClient.replies(r -> script.remove(0));
    }

    private List<String> fiveSamples(ScriptedLlmClient llm, StageTrace trace) {
        return new AgentCall(llm).askSamples(generate.withSampling(0.7, 5), ModelOutput::sql, trace).join();
    }

    @Test
    void cutSamplesAreAskedAgainWithALargerBudgetAndJoinTheOthers() {
        ScriptedLlmClient llm = inTurn(answer(3, 2), answer(2, 0));
        StageTrace trace = new StageTrace("opensearch.generate");
        List<String> sqls = fiveSamples(llm, trace);

        assertThat(sqls).as("3 whole choices, then the 2 cut ones asked again").hasSize(5);
        ChatRequest again = llm.requests().get(1);
        assertThat(again.n()).as("only as many as were cut").isEqualTo(2);
        assertThat(again.maxTokens()).as("twice the budget they were cut at").isEqualTo(2000);
        assertThat(again.temperature()).isEqualTo(0.7);
        assertThat(trace.truncatedReplies).isZero();
    }

    @Test
    void samplesStillCutAfterTheLargerBudgetAreCountedNotDropped() {
        ScriptedLlmClient llm = inTurn(answer(3, 2), answer(1, 1));
        StageTrace trace = new StageTrace("opensearch.generate");
        List<String> sqls = fiveSamples(llm, trace);

        assertThat(sqls).hasSize(4);
        assertThat(trace.truncatedReplies).as("the one reply still cut is in the stage trace").isEqualTo(1);
        assertThat(trace.llmCalls).isEqualTo(2);
    }

    @Test
    void aSingleReplyStillCutFailsTypedAndIsTraced() {
        ScriptedLlmClient llm = ScriptedLlmClient.replies(r -> answer(0, 1));
        StageTrace trace = new StageTrace("magsql.generate");

        assertThatThrownBy(() -> new AgentCall(llm).ask(generate, ModelOutput::sql, trace).join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(LlmErrorKind.TRUNCATED_OUTPUT));
        assertThat(llm.requests()).extracting(ChatRequest::maxTokens).containsExactly(1000, 2000);
        assertThat(trace.truncatedReplies).isEqualTo(1);
        assertThat(trace.llmCalls).isEqualTo(2);
    }

    @Test
    void everyRequestCarriesATemperatureFromConfigurationTheAgentTheDeclarationOrTheFallback() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL: SELECT 1");
        StageSampling sampling = StageSampling.of(
                java.util.Map.of("opensearch.correct", new io.flowsql.llm.RequestParameters(0.2, 0.3),
                        "opensearch.extract", io.flowsql.llm.RequestParameters.temperature(0.0),
                        "opensearch.extract.order", io.flowsql.llm.RequestParameters.temperature(0.3)),
                java.util.Map.of("opensearch.align", io.flowsql.llm.RequestParameters.temperature(0.9)));
        AgentCall call = new AgentCall(llm).withSampling(sampling);
        StageTrace trace = new StageTrace("t");
        call.ask(request("opensearch.correct.syntax").withSampling(0.6, null), ModelOutput::sql, trace).join();
        call.ask(request("opensearch.correct.empty"), ModelOutput::sql, trace).join();
        call.ask(request("opensearch.extract.order"), ModelOutput::sql, trace).join();
        call.ask(request("opensearch.align.style").withSampling(0.1, null), ModelOutput::sql, trace).join();
        call.ask(request("undeclared.stage"), ModelOutput::sql, trace).join();
        new AgentCall(llm).ask(request("unsampled"), ModelOutput::sql, trace).join();

        assertThat(llm.requests()).extracting(ChatRequest::temperature)
                .as("agent's own, declared, longer prefix over shorter, configuration over all, fallback, fallback")
                .containsExactly(0.6, 0.2, 0.3, 0.9, 0.0, 0.0);
        assertThat(llm.requests()).extracting(ChatRequest::topP).containsExactly(0.3, 0.3, null, null, null, null);
    }

    private static ChatRequest request(String stage) {
        return ChatRequest.of(stage, List.of(ChatMessage.system("### Task: " + stage), ChatMessage.user("Question: q")));
    }
}

package io.flowsql.journal;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ReplySchema;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.StageTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class JournaledCallsTest {
    private static final String STAGE = "magsql.generate";

    private static ChatRequest ask(String question) {
        return ChatRequest.of("magsql.generate.first", List.of(ChatMessage.system("### Task: magsql.generate.first"),
                ChatMessage.user("Question: " + question)));
    }

    /** A model that never gives the same answer twice. */
    private static ScriptedLlmClient drawing() {
        AtomicInteger draws = new AtomicInteger();
        return ScriptedLlmClient.responds(r -> List.of("```sql\nSELECT " + draws.incrementAndGet() + "\n```"));
    }

    private static RequestContext request(String id) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = id;
        return ctx;
    }

    /** One stage application that asks "a", "a" again and "b", and keeps the three answers. */
    private static List<String> applyStage(AgentCall call, RequestContext ctx) {
        List<String> out = new ArrayList<>();
        new NamedStage(STAGE, (c, trace) -> call.ask(ask("a"), ModelOutput::sql, trace)
                .thenCompose(first -> {
                    out.add(first);
                    return call.ask(ask("a"), ModelOutput::sql, trace);
                })
                .thenCompose(second -> {
                    out.add(second);
                    return call.ask(ask("b"), ModelOutput::sql, trace);
                })
                .thenAccept(out::add)).apply(ctx).join();
        return out;
    }

    private static StageTrace last(RequestContext ctx) {
        return ctx.trace.get(ctx.trace.size() - 1);
    }

    @Test
    void aRequestProcessedAgainReusesEveryDecisionAndAsksTheModelNothing() {
        ScriptedLlmClient llm = drawing();
        MemoryJournal journal = new MemoryJournal();
        AgentCall call = new AgentCall(llm, journal);

        RequestContext first = request("r-1");
        List<String> decided = applyStage(call, first);
        assertThat(decided).containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
        assertThat(journal.entries).hasSize(3);
        assertThat(last(first).journalMisses).isEqualTo(3);
        assertThat(last(first).llmCalls).isEqualTo(3);

        RequestContext replay = request("r-1");
        assertThat(applyStage(call, replay)).as("the same decisions, in the same order").isEqualTo(decided);
        assertThat(llm.requests()).as("no model call for the replay").hasSize(3);
        StageTrace trace = last(replay);
        assertThat(trace.journalHits).isEqualTo(3);
        assertThat(trace.llmCalls).isZero();
        assertThat(trace.promptTokens).isZero();
        assertThat(trace.tokensSaved).as("3 calls of 10 + 10 tokens").isEqualTo(60);

        assertThat(applyStage(call, request("r-2"))).as("another request decides anew")
                .containsExactly("SELECT 4", "SELECT 5", "SELECT 6");

        RequestContext reusing = request("r-3");
        reusing.journalOf = "r-1";
        assertThat(applyStage(call, reusing)).as("journal_of re-uses r-1's decisions").isEqualTo(decided);
        assertThat(llm.requests()).hasSize(6);

        journal.release("r-1");
        assertThat(applyStage(call, request("r-1"))).as("released: asked again")
                .containsExactly("SELECT 7", "SELECT 8", "SELECT 9");
    }

    @Test
    void theReplyMovesOnOnlyOnceItIsJournaled() {
        CompletableFuture<Void> write = new CompletableFuture<>();
        AgentCall call = new AgentCall(drawing(), new MemoryJournal(() -> write));
        StageTrace trace = new StageTrace(STAGE);
        trace.journalUnder(new JournalScope("r-1", STAGE));
        CompletableFuture<String> answer = call.ask(ask("a"), ModelOutput::sql, trace);
        assertThat(answer).as("the model answered, the journal has not confirmed").isNotDone();
        write.complete(null);
        assertThat(answer.join()).isEqualTo("SELECT 1");
    }

    @Test
    void aReplyJournaledWhileTheCallWasOnItsWayIsTheDecision() {
        MemoryJournal journal = new MemoryJournal();
        // the key of the request as AgentCall sends it: with its temperature (StageSampling)
        String key = new JournalScope("r-1", STAGE).keyFor(io.flowsql.agents.common.StageSampling.none().apply(ask("a")));
        // The killed task's call completes and is journaled while the restored request's call is at the model.
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> {
            journal.entries.put(key, new JournalEntry("r-1", STAGE, List.of("```sql\nSELECT 'first'\n```"), List.of(),
                    10, 10, false, "scripted", true, 0));
            return List.of("```sql\nSELECT 'second'\n```");
        });
        StageTrace trace = new StageTrace(STAGE);
        trace.journalUnder(new JournalScope("r-1", STAGE));
        assertThat(new AgentCall(llm, journal).ask(ask("a"), ModelOutput::sql, trace).join()).isEqualTo("SELECT 'first'");
        assertThat(journal.entries.get(key).choices()).as("not overwritten").containsExactly("```sql\nSELECT 'first'\n```");
        assertThat(trace.llmCalls).as("the call was made and is counted").isEqualTo(1);
    }

    @Test
    void aJournalThatCannotBeWrittenDoesNotCostTheAnswer() {
        MemoryJournal broken = new MemoryJournal(() -> CompletableFuture.failedFuture(new IllegalStateException("down")));
        RequestContext ctx = request("r-1");
        assertThat(applyStage(new AgentCall(drawing(), broken), ctx)).containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
        assertThat(ctx.status).isNull();
        assertThat(broken.entries).isEmpty();
    }

    @Test
    void withoutARequestIdNothingIsJournaled() {
        MemoryJournal journal = new MemoryJournal();
        RequestContext anonymous = new RequestContext();
        applyStage(new AgentCall(drawing(), journal), anonymous);
        assertThat(journal.entries).isEmpty();
        assertThat(last(anonymous).journalMisses).isZero();
    }

    @Test
    void keysSeparateStagesRequestsOccurrencesAndEverythingAsked() {
        JournalScope scope = new JournalScope("r-1", STAGE);
        String a0 = scope.keyFor(ask("a"));
        assertThat(a0).startsWith("r-1|magsql.generate|").endsWith("|0");
        assertThat(scope.keyFor(ask("a"))).as("same request again: next occurrence").isEqualTo(a0.replaceAll("0$", "1"));
        assertThat(new JournalScope("r-1", STAGE).keyFor(ask("a"))).as("a new application starts over").isEqualTo(a0);
        assertThat(new JournalScope("r-1", "other.stage").keyFor(ask("a"))).isNotEqualTo(a0);
        assertThat(new JournalScope("r-2", STAGE).keyFor(ask("a"))).isNotEqualTo(a0);
        List<ChatRequest> variants = List.of(ask("b"), ask("a").withSampling(0.7, null), ask("a").withSampling(null, 3),
                ask("a").withMaxTokens(100), ask("a").withJsonResponse(true), ask("a").withModel("other"));
        ReplySchema shape = ReplySchema.of("gen", "{\"type\": \"object\", \"properties\": {\"sql\": {\"type\": \"string\"}}}");
        String shaped = new JournalScope("r-1", STAGE).keyFor(ask("a").withReply(shape));
        assertThat(new JournalScope("r-1", STAGE).keyFor(ask("a").withReply(ReplySchema.of("gen",
                "{\"type\": \"object\", \"properties\": {\"sql\": {\"type\": \"string\"}}}"))))
                .as("an equal schema built again: the same key (no identity in it)").isEqualTo(shaped);
        assertThat(shaped).isNotEqualTo(a0);
        assertThat(new JournalScope("r-1", STAGE).keyFor(ask("a").withReply(shape.withEnum("/properties/sql", List.of("x")))))
                .as("a narrowed schema is another request").isNotEqualTo(shaped);
        for (ChatRequest variant : variants) {
            assertThat(new JournalScope("r-1", STAGE).keyFor(variant)).as("%s", variant).isNotEqualTo(a0);
        }
    }
}

package io.flowsql.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.AnswerMapper;
import io.flowsql.events.TraceEntry;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.RequestContextSerializer;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The per-stage trace names the knowledge entries whose definition that stage's chat prompts carried: a stage that
 * showed the evidence names them, a stage that sent a prompt without it, or sent none, does not.
 */
class KnowledgeInTraceTest {
    private static final KnowledgeEntry VETERAN = KnowledgeEntry.add("k-veteran", "concert_singer", "veteran singer",
            "a singer older than 40\n(singer.Age > 40)", 1L);
    private static final KnowledgeEntry STADIUM = KnowledgeEntry.add("k-big", "concert_singer", "big stadium",
            "a stadium with capacity over 10000", 2L);

    @Test
    void eachStageNamesOnlyTheEntriesItsPromptsCarried() throws Exception {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-1";
        ctx.dbId = "concert_singer";
        ctx.question = "How many veteran singers sang in a big stadium?";
        KnowledgeEvidence.attach(ctx, List.of(VETERAN, STADIUM));
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL: SELECT 1");
        AgentCall call = new AgentCall(llm);
        // shows the whole evidence on one line, as the agents' prompt fields do
        String evidenceLine = ctx.evidence.strip().replaceAll("\\s*\\R\\s*", " ");
        Stage withEvidence = (c, trace) -> call.ask(prompt("Evidence: " + evidenceLine), ModelOutput::sql, trace);
        Stage onlyOne = (c, trace) -> call.ask(prompt("Note: \"big stadium\" means: a stadium with capacity over 10000"),
                ModelOutput::sql, trace);
        Stage withoutEvidence = (c, trace) -> call.ask(prompt("Question: " + c.question), ModelOutput::sql, trace);
        Stage noCall = (c, trace) -> CompletableFuture.completedFuture(null);

        for (NamedStage stage : List.of(new NamedStage("generate", withEvidence), new NamedStage("refine", onlyOne),
                new NamedStage("rewrite", withoutEvidence), new NamedStage("execute", noCall))) {
            stage.apply(ctx).join();
        }

        assertThat(ctx.trace).extracting(t -> t.stage, t -> t.knowledgeUsed).containsExactly(
                org.assertj.core.groups.Tuple.tuple("generate", "k-veteran,k-big"),
                org.assertj.core.groups.Tuple.tuple("refine", "k-big"),
                org.assertj.core.groups.Tuple.tuple("rewrite", null),
                org.assertj.core.groups.Tuple.tuple("execute", null));
        // as in the job, the request crosses operators (the state's wire format) before its answer is made
        DataOutputSerializer out = new DataOutputSerializer(1024);
        RequestContextSerializer.INSTANCE.serialize(ctx, out);
        RequestContext shipped = RequestContextSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        AnswerEvent answer = AnswerMapper.fromContext(shipped);
        assertThat(answer.knowledgeUsed).containsExactly("k-veteran", "k-big");
        assertThat(answer.trace).extracting((TraceEntry t) -> t.knowledgeUsed)
                .containsExactly(List.of("k-veteran", "k-big"), List.of("k-big"), null, null);
    }

    @Test
    void aRequestWithoutEntriesLeavesEveryTraceEmpty() {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-2";
        ctx.dbId = "concert_singer";
        ctx.question = "How many singers?";
        KnowledgeEvidence.attach(ctx, List.of());
        AgentCall call = new AgentCall(ScriptedLlmClient.alwaysResponds("#SQL: SELECT 1"));
        new NamedStage("generate", (c, trace) -> call.ask(prompt("Evidence: \"veteran singer\" means: x"), ModelOutput::sql, trace))
                .apply(ctx).join();
        assertThat(ctx.trace).singleElement().satisfies((StageTrace t) -> assertThat(t.knowledgeUsed).isNull());
    }

    private static ChatRequest prompt(String user) {
        return ChatRequest.of("magsql.generate.first", List.of(ChatMessage.system("### Task: magsql.generate.first"),
                ChatMessage.user(user)));
    }
}

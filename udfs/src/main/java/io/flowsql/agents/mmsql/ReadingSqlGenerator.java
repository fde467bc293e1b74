package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageTrace;
import java.util.concurrent.CompletableFuture;

/** MMSQL's SQL generator for ambiguous turns: one call per reading, with the dialogue history, so the user gets an answer for each way the turn can be read. */
public final class ReadingSqlGenerator {
    private final AgentCall call;
    private final PromptPair prompt;

    public ReadingSqlGenerator(AgentCall call) {
        this.call = call;
        this.prompt = PromptPair.load("mmsql/readings");
    }

    public CompletableFuture<String> sqlFor(PromptFields frame, String reading, StageTrace trace) {
        PromptFields vars = frame.asking(reading).with("original_question", frame.question());
        ChatRequest request = prompt.request(vars);
        return call.ask(request, ModelOutput::sql, trace);
    }
}

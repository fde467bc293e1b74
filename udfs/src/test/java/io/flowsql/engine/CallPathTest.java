package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The call path from a stage operator to the model is short: on the engine's work pool, the classes between the
 * stage runner and the LLM client are the stage, its agent, the agent's model call and the journal — nothing else
 * (docs/ARCHITECTURE.md#the-call-path lists the whole path, operator to HTTP).
 */
class CallPathTest {

    @Test
    void fromTheStageRunnerToTheClientAreFourClasses() throws Exception {
        List<String> path = new ArrayList<>();
        ScriptedLlmClient answers = ScriptedLlmClient.alwaysResponds("#reason: r\n#columns: singer.Name\n"
                + "#values: \n#SELECT: SELECT Name\n#SQL-like: SELECT Name FROM singer\n#SQL:\n```sql\nSELECT Name FROM singer\n```");
        LlmClient recording = new LlmClient() {
            @Override
            public CompletableFuture<ChatResponse> chat(ChatRequest request) {
                if (path.isEmpty()) {
                    path.addAll(classesDownTo(NamedStage.class.getName()));
                }
                return answers.chat(request);
            }

            @Override
            public void close() {}
        };
        Engine engine = new Engine(recording, SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES);
        NamedStage stage = StageRegistry.build(StageRegistry.get("opensearch.generate"),
                StageParts.standard(engine, AgentSettings.defaults()));
        RequestContext ctx = new RequestContext();
        ctx.requestId = "q1";
        ctx.dbId = "concert_singer";
        ctx.question = "What are the names of the singers?";
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            RequestContext out = stage.applyOn(pool, ctx).get(30, TimeUnit.SECONDS);
            assertThat(out.status).as(String.valueOf(out.error)).isNull();
        } finally {
            pool.shutdownNow();
        }
        assertThat(path).containsExactly(
                "io.flowsql.journal.JournaledCalls",
                "io.flowsql.agents.common.AgentCall",
                "io.flowsql.agents.opensearch.ProgressiveGenerator",
                "io.flowsql.agents.opensearch.OpenSearchGenerateStage",
                "io.flowsql.pipeline.NamedStage");
    }

    /** The project's classes on the calling thread's stack, innermost first, each once per run of frames, down to {@code last}. */
    private static List<String> classesDownTo(String last) {
        return StackWalker.getInstance().walk(frames -> {
            List<String> classes = new ArrayList<>();
            for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
                String name = f.getClassName().replaceAll("\\$.*", "");
                if (!name.startsWith("io.flowsql.") || name.equals(CallPathTest.class.getName())) {
                    continue;
                }
                if (classes.isEmpty() || !classes.get(classes.size() - 1).equals(name)) {
                    classes.add(name);
                }
                if (name.equals(last)) {
                    break;
                }
            }
            return classes;
        });
    }
}

package io.flowsql.agents.mmsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code mmsql.decompose}: MMSQL's question decomposer writes sub-questions, each with its sub-SQL, in one call;
 * the last sub-SQL answers the question and becomes the candidate {@code mmsql.decompose}; the sub-questions go
 * to {@code ctx.subQuestions}. A step without a readable query makes the answer unreadable (re-asked once).
 */
public final class DecomposeStage implements Stage {
    public static final String SOURCE = "mmsql.decompose#1";

    /** One sub-question and its query. */
    record Step(String subQuestion, String sql) {}

    private final AgentCall call;
    private final SchemaContext schemas;
    private final PromptPair prompt = PromptPair.load("mmsql/decompose");

    public DecomposeStage(AgentCall call, SchemaContext schemas) {
        this.call = call;
        this.schemas = schemas;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return call.ask(prompt.request(MmsqlFields.of(ctx, schemas)),
                DecomposeStage::parse, trace).thenAccept(steps -> {
            ctx.subQuestions.clear();
            steps.forEach(s -> ctx.subQuestions.add(s.subQuestion()));
            ctx.candidates.add(new Candidate(SOURCE, steps.get(steps.size() - 1).sql()));
            trace.note = steps.size() + " sub-questions";
        });
    }

    static Optional<List<Step>> parse(String text) {
        Optional<JsonNode> steps = ModelOutput.json(text).map(j -> j.path("steps")).filter(JsonNode::isArray);
        if (steps.isEmpty() || steps.get().isEmpty()) {
            return Optional.empty();
        }
        List<Step> out = new ArrayList<>();
        for (JsonNode step : steps.get()) {
            Optional<String> sql = ModelOutput.sql("SQL: " + step.path("sql").asText(""));
            if (sql.isEmpty()) {
                return Optional.empty();
            }
            out.add(new Step(step.path("sub_question").asText("").strip(), sql.get()));
        }
        return Optional.of(out);
    }
}

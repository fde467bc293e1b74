package io.flowsql.agents.magsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * MAG-SQL §3.2 Targets-Conditions Decomposer: splits the question into targets and conditions and writes
 * cumulative sub-questions; the last sub-question is replaced by the question itself (the authors' decomposer
 * ends on a sub-question whose content is the question), so the last sub-SQL answers exactly what was asked and no
 * extra step is added after the model's own last one.
 */
public final class TargetsConditionsDecomposer {
    private final AgentCall call;
    private final PromptPair prompt = PromptPair.load("magsql/decompose");

    public TargetsConditionsDecomposer(AgentCall call) {
        this.call = call;
    }

    /** @param fields the shared prompt fields (db_id, question, evidence, history, schema) */
    public CompletableFuture<Decomposition> decompose(PromptFields fields, StageTrace trace) {
        String question = String.valueOf(fields.get("question"));
        ChatRequest request = prompt.request(fields);
        return call.ask(request, text -> parse(text, question), trace);
    }

    static Optional<Decomposition> parse(String text, String question) {
        Optional<JsonNode> json = ModelOutput.json(text).filter(JsonNode::isObject);
        if (json.isEmpty() || !json.get().path("sub_questions").isArray()) {
            return Optional.empty();
        }
        List<String> subQuestions = texts(json.get().path("sub_questions"));
        if (subQuestions.isEmpty()) {
            return Optional.empty();
        }
        subQuestions.set(subQuestions.size() - 1, question);
        return Optional.of(new Decomposition(
                texts(json.get().path("targets")), texts(json.get().path("conditions")), subQuestions));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(n -> {
                if (n.isTextual() && !n.asText().isBlank()) {
                    out.add(n.asText().strip());
                }
            });
        }
        return out;
    }
}

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
 * cumulative sub-questions; the last sub-question is forced to be the question itself, so the last sub-SQL
 * answers exactly what was asked.
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
        String last = subQuestions.get(subQuestions.size() - 1);
        if (normalize(last).equals(normalize(question))) {
            subQuestions.set(subQuestions.size() - 1, question);
        } else {
            subQuestions.add(question);
        }
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

    private static String normalize(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", " ").strip();
    }
}

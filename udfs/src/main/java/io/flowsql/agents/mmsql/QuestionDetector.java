package io.flowsql.agents.mmsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.QuestionType;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * MMSQL's Question Detector (Guo et al. 2024, §4 multi-agent framework; the authors' {@code agents/detector.py}):
 * a few-shot chain of thought that rules out improper and unanswerable turns, matches the question's entities and
 * conditions to columns, and answers {@code answerable / type / answer / rewrite}: the clarification and the
 * rewritten readings of an ambiguous turn, the reply to an unanswerable or improper one.
 */
public final class QuestionDetector {
    private final AgentCall call;
    private final PromptPair prompt;

    public QuestionDetector(AgentCall call) {
        this.call = call;
        this.prompt = PromptPair.load("mmsql/detect");
    }

    public CompletableFuture<Detection> detect(PromptFields frame, StageTrace trace) {
        ChatRequest request = prompt.request(frame);
        return call.ask(request, QuestionDetector::parse, trace);
    }

    /**
     * Reads the detector's JSON, the paper's reply ({@code answerable}, {@code type}, {@code answer}, {@code rewrite})
     * after its chain of thought ({@code improper}, {@code unanswerable}, and the {@code entities} and
     * {@code conditions} matched to columns, which become the detection's reason). {@code answerable} "yes" makes the
     * turn answerable whatever else it says, as the authors' code reads it. Unreadable: no JSON object, no valid type
     * on a turn that is not answerable, an ambiguous turn without a rewrite or a clarification, an unanswerable or
     * improper turn without a reply.
     */
    static Optional<Detection> parse(String text) {
        Optional<JsonNode> json = ModelOutput.json(text).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JsonNode node = json.get();
        String reason = matches(node);
        JsonNode answerable = node.path("answerable");
        boolean yes = answerable.isBoolean() ? answerable.asBoolean()
                : answerable.asText("").strip().toLowerCase(Locale.ROOT).startsWith("yes");
        if (yes) {
            return Optional.of(new Detection(QuestionType.ANSWERABLE, reason, "", List.of()));
        }
        Optional<QuestionType> type = type(node.path("type").asText(""));
        if (type.isEmpty()) {
            return Optional.empty();
        }
        String response = node.path("answer").asText("").strip();
        List<String> readings = new ArrayList<>();
        node.path("rewrite").forEach(r -> {
            if (r.isTextual() && !r.asText().isBlank()) {
                readings.add(r.asText().strip());
            }
        });
        boolean complete = switch (type.get()) {
            case ANSWERABLE -> true;
            case AMBIGUOUS -> !readings.isEmpty() && !response.isEmpty();
            case UNANSWERABLE, IMPROPER -> !response.isEmpty();
        };
        if (!complete) {
            return Optional.empty();
        }
        List<String> kept = type.get() == QuestionType.AMBIGUOUS ? readings : List.of();
        return Optional.of(new Detection(type.get(), reason, type.get() == QuestionType.ANSWERABLE ? "" : response, kept));
    }

    /**
     * The chain of thought's matches as one line: {@code names→singer.Name|stadium.Name; in France→…}, from lines
     * {@code "names -> singer.Name | stadium.Name"} (the reply schema's form) or {@code {phrase, columns}} objects.
     */
    private static String matches(JsonNode node) {
        List<String> parts = new ArrayList<>();
        for (String key : List.of("entities", "conditions")) {
            node.path(key).forEach(m -> {
                if (m.isTextual()) {   // the reply schema's form: "phrase -> table.column | table.column"
                    parts.add(m.asText().strip().replaceAll("\\s*->\\s*", "→").replaceAll("\\s*\\|\\s*", "|"));
                    return;
                }
                List<String> columns = new ArrayList<>();
                m.path("columns").forEach(c -> columns.add(c.asText()));
                parts.add(m.path("phrase").asText("?") + "→" + (columns.isEmpty() ? "(none)" : String.join("|", columns)));
            });
        }
        return String.join("; ", parts);
    }

    private static Optional<QuestionType> type(String text) {
        String name = text.strip().toUpperCase(Locale.ROOT);
        for (QuestionType t : QuestionType.values()) {
            if (t.name().equals(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}

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
 * MMSQL's Question Detector (Guo et al. 2024, §4 multi-agent framework): classifies a turn as answerable,
 * ambiguous, unanswerable or improper from the turn and the dialogue history; writes the clarification and
 * the readings of an ambiguous turn and the reply to an unanswerable or improper one.
 */
public final class QuestionDetector {
    private final AgentCall call;
    private final PromptPair prompt;

    public QuestionDetector(AgentCall call) {
        this.call = call;
        this.prompt = PromptPair.load("mmsql/detect");
    }

    public CompletableFuture<Detection> detect(PromptFields frame, StageTrace trace) {
        ChatRequest request = prompt.request(frame).withSampling(0.0, null);
        return call.ask(request, QuestionDetector::parse, trace);
    }

    /**
     * Reads the detector's JSON. Unreadable: an unknown type, an ambiguous turn without readings or
     * clarification, an unanswerable or improper turn without a reply.
     */
    static Optional<Detection> parse(String text) {
        Optional<JsonNode> json = ModelOutput.json(text).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JsonNode node = json.get();
        Optional<QuestionType> type = type(node.path("type").asText(""));
        if (type.isEmpty()) {
            return Optional.empty();
        }
        String response = node.path("response").asText("").strip();
        List<String> readings = new ArrayList<>();
        node.path("readings").forEach(r -> {
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
        return Optional.of(new Detection(type.get(), node.path("reason").asText(""), response, kept));
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

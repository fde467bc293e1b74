package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Simulates MAG-SQL's targets-conditions decomposer: a question with a relative clause ("who", "that",
 * "with", "whose", "where") gets two cumulative sub-questions, the last being the question itself.
 */
public final class MagSqlDecomposeResponder implements Responder {
    private static final Pattern CLAUSE = Pattern.compile("(?i)\\s(who|that|whose|with|where|which)\\s");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String question = request.field("Question").orElse("");
        if (question.isBlank()) {
            return Optional.empty();
        }
        List<String> subQuestions = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        Matcher m = CLAUSE.matcher(question);
        String target = question;
        if (m.find() && m.start() > 10) {
            target = question.substring(0, m.start()).strip();
            subQuestions.add(target + "?");
            conditions.add(question.substring(m.start()).strip().replaceAll("[?.]$", ""));
        }
        subQuestions.add(question);
        String json = "{\"targets\": [" + PromptText.quote(target.replaceAll("[?.]$", "")) + "], \"conditions\": ["
                + String.join(", ", conditions.stream().map(PromptText::quote).toList()) + "], \"sub_questions\": ["
                + String.join(", ", subQuestions.stream().map(PromptText::quote).toList()) + "]}";
        return Optional.of(List.of("```json\n" + json + "\n```"));
    }
}

package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Simulates the RQS judge (evaluation stage {@code eval.rqs}) with a rule a test can predict: the answer type is the
 * ground-truth type the prompt names; the score is 0 for an empty response, 10 when the response shares a word of four
 * or more letters with the reference answer, else 5. Answers in the judge's JSON.
 */
public final class EvalRqsResponder implements Responder {

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Optional<String> response = request.field("System response");
        if (response.isEmpty()) {
            return Optional.empty();
        }
        String type = request.field("Ground truth type").orElse("");
        Set<String> reference = words(request.field("Reference answer").orElse(""));
        Set<String> said = words(response.get());
        int score = said.isEmpty() ? 0 : said.stream().anyMatch(reference::contains) ? 10 : 5;
        String json = "{\"AnswerType\": \"" + type.replace("\"", "") + "\", \"Rationale\": \"simulated judge: "
                + (score == 10 ? "shares words with the reference" : score == 5 ? "answers, but not like the reference" : "empty")
                + "\", \"Score\": " + score + "}";
        return Optional.of(List.of(json));
    }

    static Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> w.length() >= 4).collect(Collectors.toSet());
    }
}

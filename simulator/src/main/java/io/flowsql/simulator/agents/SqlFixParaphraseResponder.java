package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Simulates SQLFixAgent's query crafter writing k paraphrases: the question behind k different lead-ins, in the crafter's JSON. */
public final class SqlFixParaphraseResponder implements Responder {
    private static final List<String> LEAD_INS = List.of("Using the database, ", "Please find out: ", "I would like to know: ",
            "From the tables given, ", "Tell me precisely: ");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Optional<String> question = request.field("Question");
        if (question.isEmpty()) {
            return Optional.empty();
        }
        int k = request.field("Paraphrases wanted").map(SqlFixParaphraseResponder::number).orElse(2);
        List<String> paraphrases = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            paraphrases.add(PromptText.quote(LEAD_INS.get(i % LEAD_INS.size()) + question.get()));
        }
        return Optional.of(List.of("```json\n{\"paraphrases\": [" + String.join(", ", paraphrases) + "]}\n```"));
    }

    private static int number(String text) {
        try {
            return Math.max(1, Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return 2;
        }
    }
}

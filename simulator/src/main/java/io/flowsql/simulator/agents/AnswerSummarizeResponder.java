package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Simulates the summarizer: a sentence built from the rows the prompt shows (the first column as the subject, the
 * others as its values, at most three rows), "Nothing matched" for an empty result, and "No answer" for a failure. A
 * rule, not a language model: every value in it comes from the prompt's result block.
 */
public final class AnswerSummarizeResponder implements Responder {
    private static final int ROWS_NAMED = 3;

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String outcome = request.field("Outcome").orElse("");
        String summary;
        if (outcome.startsWith("failed")) {
            summary = "No answer could be found" + outcome.substring(outcome.indexOf('(') < 0 ? outcome.length()
                    : outcome.indexOf('(') - 1) + ".";
        } else {
            List<String> rows = resultRows(request.lastUserMessage());
            summary = rows.isEmpty() ? "Nothing matched the question." : describe(rows);
        }
        return Optional.of(List.of("```json\n{\"summary\": " + PromptText.quote(summary) + "}\n```"));
    }

    /** The data lines under "Result:" (the header line dropped), up to a "(n more rows …)" line. */
    private static List<String> resultRows(String message) {
        int at = message.indexOf("\nResult:\n");
        List<String> rows = new ArrayList<>();
        if (at < 0) {
            return rows;
        }
        List<String> lines = message.substring(at + "\nResult:\n".length()).lines().toList();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("(")) {
                break;
            }
            rows.add(line);
        }
        return rows;
    }

    private static String describe(List<String> rows) {
        List<String> parts = new ArrayList<>();
        for (String row : rows.subList(0, Math.min(ROWS_NAMED, rows.size()))) {
            String[] cells = row.split(" \\| ");
            parts.add(cells.length == 1 ? cells[0] : cells[0] + " (" + String.join(", ", List.of(cells).subList(1, cells.length)) + ")");
        }
        String more = rows.size() > ROWS_NAMED ? ", and " + (rows.size() - ROWS_NAMED) + " more" : "";
        return "The answer: " + String.join(", ", parts) + more + ".";
    }
}

package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Simulates OpenSearch-SQL's SELECT-order call ({@code opensearch.extract.order}): the items of the gold SQL's outer
 * SELECT clause, in order (unknown question: "the answer"), as a ```json object.
 */
public final class OpenSearchOrderResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String question = request.field("Question").orElse("");
        List<String> items = context.oracle().flatMap(o -> o.goldSql(request.field("Database").orElse(""), question))
                .map(OpenSearchOrderResponder::selectItems).filter(list -> !list.isEmpty())
                .orElse(List.of("the answer"));
        return Optional.of(List.of("```json\n{\"select\": " + OpenSearchExtractResponder.json(items) + "}\n```"));
    }

    /** The outer SELECT's items, split at commas outside parentheses and quotes. */
    static List<String> selectItems(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        int start = lower.indexOf("select");
        if (start < 0) {
            return List.of();
        }
        List<String> items = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        StringBuilder item = new StringBuilder();
        for (int i = start + 6; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && lower.startsWith(" from ", i)) {
                break;
            } else if (!quoted && depth == 0 && c == ',') {
                items.add(item.toString().strip());
                item.setLength(0);
                continue;
            }
            item.append(c);
        }
        if (!item.toString().isBlank()) {
            items.add(item.toString().strip());
        }
        return items.stream().map(s -> s.replaceFirst("(?i)^distinct\\s+", "")).toList();
    }
}

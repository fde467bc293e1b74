package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Simulates MMSQL's schema selector: keeps ("table.*") the schema's tables the gold SQL (or, unknown, the question)
 * names; every table when it names none.
 */
public final class MmsqlSelectResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        List<String> tables = PromptText.tables(PromptText.schema(request.lastUserMessage()));
        String question = request.field("Question").orElse("");
        String basis = context.oracle().flatMap(o -> o.goldSql(request.field("Database").orElse(""), question))
                .orElse(question).toLowerCase(Locale.ROOT);
        List<String> named = tables.stream()
                .filter(t -> Pattern.compile("\\b" + Pattern.quote(t.toLowerCase(Locale.ROOT)) + "\\b").matcher(basis).find())
                .toList();
        String keep = (named.isEmpty() ? tables : named).stream().map(t -> PromptText.quote(t + ".*"))
                .collect(Collectors.joining(", ", "[", "]"));
        return Optional.of(List.of("{\"reason\": \"tables the question needs\", \"keep\": " + keep + "}"));
    }
}

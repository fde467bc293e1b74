package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Simulates MAG-SQL's table summarizer: one plain sentence per table of the prompt's schema, as a ```json object. */
public final class MagSqlSummarizeResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        List<String> tables = PromptText.tables(PromptText.schema(request.lastUserMessage()));
        String json = tables.stream()
                .map(t -> PromptText.quote(t) + ": " + PromptText.quote("Each row of " + t + " describes one "
                        + PromptText.singular(t.toLowerCase(java.util.Locale.ROOT).replace('_', ' ')) + "."))
                .collect(Collectors.joining(",\n ", "{", "}"));
        return Optional.of(List.of("```json\n" + json + "\n```"));
    }
}

package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.List;
import java.util.Optional;

/**
 * Simulates SQLFixAgent's reviewer: with the oracle it flags exactly the SQL that differs from the gold
 * query (so an injected error is caught), without it it calls the SQL correct; answers in the reviewer's JSON.
 */
public final class SqlFixReviewResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Optional<String> sql = PromptText.firstSql(request.lastUserMessage());
        if (sql.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> gold = context.oracle().flatMap(o -> o.goldSql(
                request.field("Database").orElse(""), request.field("Question").orElse("")));
        boolean flagged = gold.isPresent() && !PromptText.canonical(gold.get()).equals(PromptText.canonical(sql.get()));
        String clause = "{\"clause\": " + PromptText.quote(sql.get().replaceAll("\\s+", " "))
                + ", \"meaning\": \"the whole query\", \"consistent\": " + !flagged + "}";
        String reasons = flagged ? "[\"the query does not ask for what the question asks (columns, tables or conditions differ)\"]" : "[]";
        return Optional.of(List.of("```json\n{\"explanation\": [" + clause + "], \"verdict\": \""
                + (flagged ? "flagged" : "correct") + "\", \"reasons\": " + reasons + "}\n```"));
    }
}

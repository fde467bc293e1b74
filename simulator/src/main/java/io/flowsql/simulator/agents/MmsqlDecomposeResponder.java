package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.List;
import java.util.Optional;

/**
 * Simulates MMSQL's decomposer: one step, the question itself, with the gold SQL through the error injector
 * (or a plausible query when the oracle does not know the question).
 */
public final class MmsqlDecomposeResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String db = request.field("Database").orElse("");
        String question = request.field("Question").orElse("");
        String schema = PromptText.schema(request.lastUserMessage());
        String sql = context.oracle().flatMap(o -> o.goldSql(db, question))
                .map(g -> context.errorInjector().inject(g, schema).sql())
                .orElseGet(() -> PromptText.plausibleSql(question, schema));
        return Optional.of(List.of("{\"steps\": [{\"sub_question\": " + PromptText.quote(question) + ", \"sql\": "
                + PromptText.quote(sql.replaceAll("\\s+", " ")) + "}]}"));
    }
}

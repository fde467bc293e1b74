package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.List;
import java.util.Optional;

/** Simulates MMSQL's rewriter: the turn is returned as its own self-contained form (CoSQL turns are keyed by their text). */
public final class MmsqlRewriteResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        return Optional.of(List.of("{\"rewritten\": " + PromptText.quote(request.field("Question").orElse("")) + "}"));
    }
}

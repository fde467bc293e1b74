package io.flowsql.simulator;

import java.util.List;
import java.util.Optional;

/** Answers prompts no registered responder claims, with a short text that says it is simulated. */
final class GenericResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String task = request.task().isEmpty() ? "none" : request.task();
        if (request.jsonResponseRequested()) {
            return Optional.of(List.of("{\"simulated\": true, \"task\": \"" + task.replace("\"", "'") + "\"}"));
        }
        return Optional.of(List.of("[simulated answer: no responder for task " + task + "]"));
    }
}

package io.flowsql.simulator;

import java.util.List;
import java.util.Optional;

/**
 * Writes the simulated answer for one kind of prompt, so each agent's output format lives in one
 * small class; empty means "not mine", and the server then falls back to its generic responder.
 */
@FunctionalInterface
public interface Responder {
    /** One text per choice (the server trims or repeats to the number of choices it serves). */
    Optional<List<String>> respond(SimulatedRequest request, SimulationContext context);
}

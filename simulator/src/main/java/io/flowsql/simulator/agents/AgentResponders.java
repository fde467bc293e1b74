package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import java.util.Map;

/** The registry of per-agent responders by stage name; owned by the agents engineers, who fill it. */
public final class AgentResponders {
    private AgentResponders() {}

    /** Every agent responder, keyed by the stage name on the first line of its system prompt. */
    public static Map<String, Responder> all() {
        return Map.of();
    }
}

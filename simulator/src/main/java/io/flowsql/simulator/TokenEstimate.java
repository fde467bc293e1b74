package io.flowsql.simulator;

import java.util.List;

/** The simulator's own rough token count (four characters a token), for usage and the latency model. */
final class TokenEstimate {
    private TokenEstimate() {}

    static int of(String text) {
        return text.isEmpty() ? 0 : Math.max(1, (text.length() + 3) / 4);
    }

    static int ofMessages(List<SimulatedMessage> messages) {
        return messages.stream().mapToInt(m -> of(m.content()) + 4).sum() + 3;
    }
}

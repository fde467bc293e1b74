package io.flowsql.llm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The outcome of one chat request after retries: the text of each choice, token usage, which model
 * answered, whether the answer came from the project's simulated server (never from a language
 * model), the wall time including retries, how many retries it took, whether it came from the
 * response cache, and each choice's finish_reason as the server gave it ("stop", "length", ...; null
 * where unknown).
 */
public record ChatResponse(
        List<String> choices,
        TokenUsage usage,
        String model,
        boolean simulated,
        long latencyMillis,
        int retries,
        boolean cached,
        List<String> finishReasons) {

    public static final String LENGTH = "length";

    public ChatResponse {
        choices = List.copyOf(choices);
        List<String> reasons = new ArrayList<>(finishReasons == null ? List.of() : finishReasons);
        while (reasons.size() < choices.size()) {
            reasons.add(null);
        }
        finishReasons = Collections.unmodifiableList(reasons.subList(0, choices.size()));
    }

    /** A response whose finish reasons are unknown. */
    public ChatResponse(List<String> choices, TokenUsage usage, String model, boolean simulated, long latencyMillis,
            int retries, boolean cached) {
        this(choices, usage, model, simulated, latencyMillis, retries, cached, List.of());
    }

    /** The first choice; callers that asked for n choices read {@link #choices()}. */
    public String text() {
        return choices.isEmpty() ? "" : choices.get(0);
    }

    /** Whether choice {@code index} was cut at max_tokens (finish_reason "length"). */
    public boolean truncated(int index) {
        return LENGTH.equals(finishReasons.get(index));
    }
}

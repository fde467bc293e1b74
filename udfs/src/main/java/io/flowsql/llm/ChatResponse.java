package io.flowsql.llm;

import java.util.List;

/**
 * The outcome of one chat request after retries: the text of each choice, token usage, which model
 * answered, whether the answer came from the project's simulated server (never from a language
 * model), the wall time including retries, how many retries it took and whether it came from the
 * response cache.
 */
public record ChatResponse(
        List<String> choices,
        TokenUsage usage,
        String model,
        boolean simulated,
        long latencyMillis,
        int retries,
        boolean cached) {

    public ChatResponse {
        choices = List.copyOf(choices);
    }

    /** The first choice; callers that asked for n choices read {@link #choices()}. */
    public String text() {
        return choices.isEmpty() ? "" : choices.get(0);
    }
}

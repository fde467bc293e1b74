package io.flowsql.simulator;

import java.util.List;
import java.util.Optional;

/**
 * A chat-completion request as the simulator sees it, with helpers that read the labelled lines the
 * project's prompts carry (see docs/CONVENTIONS.md), so responders need no JSON or parsing of their own.
 */
public record SimulatedRequest(
        String model,
        List<SimulatedMessage> messages,
        int n,
        Double temperature,
        Long seed,
        Integer maxTokens,
        boolean jsonResponseRequested) {

    private static final String TASK_PREFIX = "### Task: ";

    public SimulatedRequest {
        messages = List.copyOf(messages);
    }

    /** The stage name on the first line of the system message, or "" when there is none. */
    public String task() {
        return messages.stream()
                .filter(m -> "system".equals(m.role()))
                .findFirst()
                .map(m -> firstLine(m.content()))
                .filter(line -> line.startsWith(TASK_PREFIX))
                .map(line -> line.substring(TASK_PREFIX.length()).trim())
                .orElse("");
    }

    /**
     * The content of the last user message that carries the prompt's labelled fields (so a re-ask, whose last
     * message is only a short correction, is still answered from the original prompt); else the last user
     * message; "" when there is none.
     */
    public String lastUserMessage() {
        String last = null;
        for (int i = messages.size() - 1; i >= 0; i--) {
            if ("user".equals(messages.get(i).role())) {
                String content = messages.get(i).content();
                if (last == null) {
                    last = content;
                }
                if (carriesFields(content)) {
                    return content;
                }
            }
        }
        return last == null ? "" : last;
    }

    private static boolean carriesFields(String content) {
        return content.lines().map(String::strip)
                .anyMatch(line -> line.startsWith("Question:") || line.startsWith("Database:") || line.equals("Schema:"));
    }

    /** The text after "Label: " on the first line of the last user message that starts with it. */
    public Optional<String> field(String label) {
        String prefix = label + ":";
        return lastUserMessage().lines()
                .map(String::strip)
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).trim())
                .findFirst();
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return (end < 0 ? text : text.substring(0, end)).trim();
    }
}

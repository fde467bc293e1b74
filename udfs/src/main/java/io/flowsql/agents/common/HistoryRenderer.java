package io.flowsql.agents.common;

import io.flowsql.pipeline.DialogueTurn;
import java.util.List;

/** Renders a dialogue's earlier turns for prompts, because MMSQL puts the history (questions, their types and SQL) into every stage's prompt. */
public final class HistoryRenderer {
    /** What prompts show when the question opens its dialogue. */
    public static final String NO_HISTORY = "(no earlier turns)";

    private final int maxTurns;

    public HistoryRenderer() {
        this(8);
    }

    /** Keeps only the latest {@code maxTurns} turns so long dialogues do not crowd out the schema. */
    public HistoryRenderer(int maxTurns) {
        this.maxTurns = maxTurns;
    }

    public String render(List<DialogueTurn> history) {
        if (history == null || history.isEmpty()) {
            return NO_HISTORY;
        }
        int from = Math.max(0, history.size() - maxTurns);
        StringBuilder out = new StringBuilder();
        for (int i = from; i < history.size(); i++) {
            DialogueTurn turn = history.get(i);
            out.append("Turn ").append(i + 1).append(" [").append(orDash(turn.questionType)).append("]: ")
                    .append(orDash(turn.question)).append('\n');
            if (turn.sql != null && !turn.sql.isBlank()) {
                out.append("  SQL: ").append(SqlOneLine.of(turn.sql)).append('\n');
            }
            if (turn.summary != null && !turn.summary.isBlank()) {
                out.append("  Result: ").append(turn.summary.strip()).append('\n');
            }
        }
        return out.toString().stripTrailing();
    }

    private static String orDash(String s) {
        return s == null || s.isBlank() ? "-" : s.strip();
    }
}

package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How much of a dialogue is kept and carried with each request: the newest {@code maxTurns} turns whose text (question,
 * SQL, summary as UTF-8) fits in {@code maxBytes}. The prompts show the same window, so nothing is kept that no prompt reads.
 */
public record HistoryLimits(int maxTurns, int maxBytes) implements Serializable {
    /** The prompts' window (HistoryRenderer shows the last 8 turns) and 16 KiB. */
    public static HistoryLimits defaults() {
        return new HistoryLimits(8, 16 * 1024);
    }

    public HistoryLimits {
        if (maxTurns < 0 || maxBytes < 0) {
            throw new IllegalArgumentException("history limits must not be negative: " + maxTurns + " turns, " + maxBytes + " bytes");
        }
    }

    /** The newest turns within the limits, oldest first (a new list; {@code turns} is oldest first too). */
    public List<DialogueTurn> keep(List<DialogueTurn> turns) {
        List<DialogueTurn> kept = new ArrayList<>();
        long bytes = 0;
        for (int i = turns.size() - 1; i >= 0 && kept.size() < maxTurns; i--) {
            bytes += sizeOf(turns.get(i));
            if (bytes > maxBytes) {
                break;
            }
            kept.add(0, turns.get(i));
        }
        return kept;
    }

    static long sizeOf(DialogueTurn turn) {
        return length(turn.requestId) + length(turn.question) + length(turn.questionType) + length(turn.sql)
                + length(turn.summary);
    }

    private static long length(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }
}

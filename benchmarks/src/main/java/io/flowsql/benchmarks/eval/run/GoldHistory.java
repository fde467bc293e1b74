package io.flowsql.benchmarks.eval.run;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.events.HistoryTurnEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gold protocol of dialogue benchmarks (MMSQL's published figures): each turn is asked with the earlier turns of its
 * dialogue as the benchmark has them — their questions, gold types and gold SQL — instead of the system's own earlier
 * answers. Built from the whole benchmark, so a turn sent alone (a {@code --limit}, a resumed run) still gets it.
 */
public final class GoldHistory {
    private final Map<String, List<BenchmarkItem>> dialogues = new LinkedHashMap<>();

    public GoldHistory(Benchmark full) {
        for (BenchmarkItem item : full.items()) {
            if (item.dialogueId() != null) {
                dialogues.computeIfAbsent(item.dialogueId(), k -> new ArrayList<>()).add(item);
            }
        }
    }

    /** The turns before this one, oldest first; empty for a single question or a dialogue's first turn. */
    public List<HistoryTurnEvent> before(BenchmarkItem item) {
        List<HistoryTurnEvent> turns = new ArrayList<>();
        if (item.dialogueId() == null) {
            return turns;
        }
        for (BenchmarkItem earlier : dialogues.getOrDefault(item.dialogueId(), List.of())) {
            if (earlier.turnIndex() < item.turnIndex()) {
                turns.add(new HistoryTurnEvent(earlier.question(), earlier.questionType(),
                        earlier.goldSql().isEmpty() ? null : earlier.goldSql(), null));
            }
        }
        return turns;
    }
}

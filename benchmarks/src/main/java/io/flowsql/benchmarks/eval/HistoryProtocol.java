package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.load.Benchmark;

/**
 * What a dialogue turn was answered after, printed beside every dialogue benchmark's figures: the gold earlier turns
 * (MMSQL's published protocol, {@link io.flowsql.benchmarks.eval.run.GoldHistory}) or the system's own earlier answers,
 * which makes later turns harder; figures of the two are not comparable. A scored file does not say which it was made
 * with, so {@code score} prints it as not stated unless told.
 */
public enum HistoryProtocol {
    GOLD("gold history (each turn sent with the gold questions, types and SQL of the turns before it; MMSQL's published "
            + "protocol)"),
    OWN("own history (each turn answered after the system's own earlier answers; not comparable with MMSQL's published "
            + "figures, which use gold history)"),
    UNSTATED("history protocol not stated (score --history gold|own says how the file was made; MMSQL's published "
            + "outputs use gold history)");

    private final String description;

    HistoryProtocol(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** gold or own (case aside); null: not stated. */
    public static HistoryProtocol parse(String value) {
        if (value == null) {
            return UNSTATED;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "gold" -> GOLD;
            case "own" -> OWN;
            default -> throw new IllegalArgumentException("--history must be gold or own, not '" + value + "'");
        };
    }

    /** The description for a benchmark with dialogues, null for one of single questions (where no history exists). */
    public String forBenchmark(Benchmark bench) {
        return bench.items().stream().anyMatch(i -> i.dialogueId() != null && i.turnIndex() > 0) ? description : null;
    }
}

package io.flowsql.benchmarks.soak;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * When the soak injects which fault: {@code max(kinds, minutes)} faults, one per equal slot of the run after a 20 s
 * quiet start, each at a random moment in the first third of its slot; the kinds come in rounds, each round every kind
 * once in a seeded random order, so the first round (a 5-minute run with five kinds) already has every kind.
 */
record FaultSchedule(List<Planned> faults) {
    static final long QUIET_START_SECONDS = 20;
    /** The end of the run kept free of new faults, so the last one's recovery is inside the run. */
    static final long QUIET_END_SECONDS = 30;

    /** One fault: its kind and its second from the run's start. */
    record Planned(String kind, double atSeconds) {}

    /** One fault of {@code kind} after the quiet start: the smoke run's schedule (FLOWSQL_BENCH_SMALL). */
    static FaultSchedule one(String kind) {
        return new FaultSchedule(List.of(new Planned(kind, QUIET_START_SECONDS)));
    }

    static FaultSchedule plan(List<String> kinds, int minutes, long seed) {
        if (kinds.isEmpty() || minutes <= 0) {
            throw new IllegalArgumentException("a soak needs kinds of fault and a positive length: " + kinds + ", " + minutes);
        }
        Random random = new Random(seed);
        int count = Math.max(kinds.size(), minutes);
        double slot = (minutes * 60.0 - QUIET_START_SECONDS - QUIET_END_SECONDS) / count;
        List<Planned> out = new ArrayList<>();
        List<String> round = new ArrayList<>();
        for (int f = 0; f < count; f++) {
            if (round.isEmpty()) {
                round.addAll(kinds);
                Collections.shuffle(round, random);
            }
            out.add(new Planned(round.remove(0), QUIET_START_SECONDS + f * slot + random.nextDouble() * slot / 3));
        }
        return new FaultSchedule(List.copyOf(out));
    }
}

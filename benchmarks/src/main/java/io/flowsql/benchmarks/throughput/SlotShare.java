package io.flowsql.benchmarks.throughput;

import io.flowsql.simulator.BusySlots;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The sustained run's ratio to the ideal, as the share of the simulated server's slot time its calls held in the
 * counting window: readings of the server's slot clock ({@link BusySlots}) taken at every poll of the run, and between
 * the first reading at or after the window's start and the last at or before its end, the slot-nanoseconds held /
 * (slots × the time between). The ideal is every slot busy all the time, and a slot counts only while held, so the
 * ratio cannot exceed 1 by construction — unlike answers per second over S / (L × calls per question), which counts
 * answers whose calls were made before the window and uses the whole run's calls per question.
 */
final class SlotShare {
    private final Supplier<BusySlots> clock;
    private final List<Long> atMillis = new ArrayList<>();
    private final List<BusySlots> readings = new ArrayList<>();

    SlotShare(Supplier<BusySlots> clock) {
        this.clock = clock;
    }

    /** Reads the slot clock at {@code msSinceStart} of the run. */
    void sample(long msSinceStart) {
        readings.add(clock.get());
        atMillis.add(msSinceStart);
    }

    /** The share of the slots' time held between the readings that bound [fromMillis, toMillis] from inside. */
    double between(long fromMillis, long toMillis) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < atMillis.size(); i++) {
            long at = atMillis.get(i);
            if (first < 0 && at >= fromMillis) {
                first = i;
            }
            if (at <= toMillis) {
                last = i;
            }
        }
        if (first < 0 || last <= first) {
            throw new IllegalStateException("no two slot-clock readings between " + fromMillis + " and " + toMillis + " ms");
        }
        return readings.get(last).shareSince(readings.get(first));
    }
}

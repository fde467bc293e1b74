package io.flowsql.benchmarks.throughput;

import io.flowsql.simulator.BusySlots;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlotShareTest {
    private static final long MS = 1_000_000;

    /** Readings every 50 ms of a 4-slot server: 2 slots held until 1 s, all 4 after. */
    private static SlotShare readEvery50Ms(int count) {
        List<BusySlots> clock = new ArrayList<>();
        long held = 0;
        for (int i = 0; i < count; i++) {
            clock.add(new BusySlots(i * 50 * MS, held, 4));
            held += (i * 50 < 1_000 ? 2 : 4) * 50 * MS;
        }
        Iterator<BusySlots> next = clock.iterator();
        SlotShare share = new SlotShare(next::next);
        for (int i = 0; i < count; i++) {
            share.sample(i * 50L);
        }
        return share;
    }

    @Test
    void theWindowTakesTheReadingsInsideItsEdges() {
        SlotShare share = readEvery50Ms(60);
        // readings at 1000 and 2900 ms: all four slots held between them
        assertEquals(1.0, share.between(990, 2_920), 1e-9);
        // readings at 500 and 1500: half the time at 2 of 4 slots, half at 4
        assertEquals(0.75, share.between(480, 1_510), 1e-9);
    }

    @Test
    void aBusyWindowIsAtMostOneAndTheAnswersRateCanExceedIt() {
        // the answers' rate in whole checkpoint periods counts answers whose calls ran before the window: here 21 bunches
        // in 10.5 s, the first of them double (a backlog from before), where the slots allow 40/s: 1.048 of the ideal
        List<Long> arrivals = new ArrayList<>();
        for (int b = 0; b < 22; b++) {
            for (int i = 0; i < (b == 1 ? 40 : 20); i++) {
                arrivals.add(1_000L + b * 500);
            }
        }
        SteadyRate rate = SteadyRate.of(arrivals, 900, 11_600);
        assertTrue(rate.perSecond() / 40.0 > 1.0, "answers' rate over the ideal: " + rate.perSecond() / 40.0);
        // the slot clock over the same window cannot show more than every slot busy
        assertEquals(1.0, readEvery50Ms(300).between(rate.startMillis(), rate.startMillis() + rate.millis()), 1e-9);
    }

    @Test
    void aWindowWithoutTwoReadingsIsRefused() {
        assertThrows(IllegalStateException.class, () -> readEvery50Ms(10).between(120, 160));
    }
}

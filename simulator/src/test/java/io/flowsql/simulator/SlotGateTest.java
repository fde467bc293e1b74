package io.flowsql.simulator;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slot clock: with more requests than slots, every window between two readings (however its edges cut the calls)
 * shows at most the slots' capacity held, and a saturated stretch shows most of it.
 */
class SlotGateTest {

    @Test
    void noWindowBetweenReadingsHoldsMoreThanTheSlotsCapacityAndASaturatedOneHoldsMostOfIt() throws Exception {
        int slots = 3;
        SlotGate gate = new SlotGate(slots);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        List<BusySlots> readings = new ArrayList<>();
        try {
            BusySlots idle = gate.busySlots();
            assertThat(idle.slotNanos()).isZero();
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                calls.add(callers.submit(() -> {
                    gate.acquireSlot();
                    try {
                        Thread.sleep(15);
                    } finally {
                        gate.releaseSlot();
                    }
                    return null;
                }));
            }
            while (calls.stream().anyMatch(f -> !f.isDone())) {
                readings.add(gate.busySlots());
                LockSupport.parkNanos(3_000_000); // readings every ~3 ms cut calls of 15 ms anywhere
            }
            for (Future<?> f : calls) {
                f.get();
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(readings.size()).isGreaterThan(10);
        double most = 0;
        for (int i = 0; i < readings.size(); i++) {
            for (int j = i + 1; j < readings.size(); j++) {
                double share = readings.get(j).shareSince(readings.get(i));
                assertThat(share).as("share between readings %d and %d", i, j).isLessThanOrEqualTo(1.0);
                most = Math.max(most, share);
            }
        }
        // 40 calls of >= 15 ms on 3 slots: 200 ms of saturation, read every ~3 ms
        assertThat(most).isGreaterThan(0.9);
        BusySlots end = gate.busySlots();
        assertThat(end.slotNanos()).as("40 calls of at least 15 ms each").isGreaterThanOrEqualTo(40 * 15_000_000L);
        assertThat(end.shareSince(end)).isZero();
    }
}

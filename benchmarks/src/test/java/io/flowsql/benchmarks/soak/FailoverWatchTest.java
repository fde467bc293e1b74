package io.flowsql.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FailoverWatchTest {

    @Test
    void keepsEachDistinctFailoverOnceAndFindsTheFirstInAFaultsWindow() {
        AtomicLong latest = new AtomicLong();
        try (FailoverWatch watch = new FailoverWatch(latest::get, TimeUnit.HOURS.toMillis(1))) {
            watch.poll(); // no failover yet: nothing kept
            for (long at : new long[] {1_000, 1_000, 5_000, 5_000, 7_000}) {
                latest.set(at);
                watch.poll();
            }
            assertThat(watch.countIn(0, Long.MAX_VALUE)).isEqualTo(3);
            assertThat(watch.firstIn(2_000, 6_000)).hasValue(5_000);
            assertThat(watch.countIn(2_000, 7_000)).as("the window's end is not in it").isEqualTo(1);
            assertThat(watch.firstIn(7_001, Long.MAX_VALUE)).isEmpty();
        }
    }

    @Test
    void aFaultReadsItsDetectionFromTheFirstFailoverAfterItsStartAndItsRecoveryFromItsClocks() {
        FaultRecord fault = new FaultRecord(1_000_000_000L, 3_000_000_000L, 50_000, 52_000);
        assertThat(fault.detection(OptionalLong.empty(), 0)).isEqualTo("no job failover");
        assertThat(fault.detection(OptionalLong.of(50_750), 1)).isEqualTo("job failover +750 ms");
        assertThat(fault.detection(OptionalLong.of(50_750), 2)).isEqualTo("job failover +750 ms (2 failovers)");
        assertThat(fault.since(fault.endNanos(), 4_500_000_000L)).isEqualTo("+1500 ms");
        assertThat(fault.since(fault.startNanos(), 0)).isEqualTo("none");
    }
}

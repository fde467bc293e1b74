package io.flowsql.benchmarks.throughput;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MachineCpuTest {

    @Test
    void theBusyShareCountsEveryStateButIdleAndIowaitOverAllCores() {
        MachineCpu start = MachineCpu.parse("""
                cpu  1000 10 300 5000 100 5 5 0 0 0
                cpu0 500 5 150 2500 50 3 2 0 0 0
                cpu1 500 5 150 2500 50 2 3 0 0 0
                intr 12345
                """);
        // 200 ticks on two cores: 120 user, 10 system, 6 irq + softirq, 4 steal busy; 50 idle, 10 iowait
        MachineCpu end = MachineCpu.parse("""
                cpu  1120 10 310 5050 110 8 8 4 0 0
                cpu0 560 5 155 2525 55 4 4 2 0 0
                cpu1 560 5 155 2525 55 4 4 2 0 0
                """);

        assertThat(end.cores()).isEqualTo(2);
        assertThat(end.busyShareSince(start)).isCloseTo(140 / 200.0, within(1e-9));
    }

    @Test
    void thisMachineReadsAsSomeShareBetweenNothingAndAll() throws InterruptedException {
        MachineCpu start = MachineCpu.now();
        long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();  // one core busy for 0.3 s: the share cannot be zero
        }
        double share = MachineCpu.now().busyShareSince(start);
        assertThat(share).isGreaterThan(0).isLessThanOrEqualTo(1);
    }
}

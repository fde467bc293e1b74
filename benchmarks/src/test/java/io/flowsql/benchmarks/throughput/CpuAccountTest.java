package io.flowsql.benchmarks.throughput;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CpuAccountTest {
    private static final long MS = 1_000_000L;

    /** The JVM stops a compiler thread it no longer needs: what the others spent is still the JIT's, never less. */
    @Test
    void aCompilerThreadThatEndedDoesNotTakeTheOthersTimeWithIt() {
        CpuAccount.Snapshot start = snapshot(Map.of(11L, 900 * MS, 12L, 4_000 * MS), 10_000 * MS);
        CpuAccount.Snapshot end = snapshot(Map.of(11L, 1_000 * MS), 10_500 * MS);

        assertThat(end.jitSince(start)).isEqualTo(100 * MS);
        Map<String, Long> parts = new CpuAccount().between(start, end);
        assertThat(parts.get(CpuAccount.JIT)).isEqualTo(100 * MS);
        assertThat(parts.get(CpuAccount.UNATTRIBUTED)).isEqualTo(400 * MS);
    }

    @Test
    void aThreadNewSinceTheStartOrAReusedIdCountsFromZero() {
        CpuAccount.Snapshot start = snapshot(Map.of(11L, 900 * MS, 12L, 4_000 * MS), 0);
        CpuAccount.Snapshot end = snapshot(Map.of(11L, 950 * MS, 12L, 30 * MS, 13L, 20 * MS), 0);

        assertThat(end.jitSince(start)).isEqualTo((50 + 30 + 20) * MS);
    }

    private static CpuAccount.Snapshot snapshot(Map<Long, Long> compilers, long processNanos) {
        return new CpuAccount.Snapshot(Map.of(), Map.of(), compilers, Map.of(), Map.of(), processNanos);
    }
}

package io.flowsql.benchmarks.throughput;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RunFiguresTest {

    /** 400 questions of 3 calls at 64 slots of 200 ms: 3.75 s of slot work, then a 400 ms floor paid once. */
    @Test
    void aBurstsCeilingPaysTheMedianFloorOnceOnTopOfTheSlotsWork() {
        List<Long> floors = Collections.nCopies(400, 400L);
        RunFigures burst = new RunFigures("burst", 400, 5_000, 1_200, Collections.nCopies(400, 3_000L), floors,
                Collections.nCopies(400, 3_000L));

        assertThat(burst.burstCeiling(64, 200)).isCloseTo(3_750.0 / 4_150.0, within(1e-9));
        assertThat(new RunFigures("burst", 4_000, 50_000, 12_000, Collections.nCopies(4_000, 3_000L),
                Collections.nCopies(4_000, 400L), Collections.nCopies(4_000, 3_000L)).burstCeiling(64, 200))
                .as("ten times the questions: the floor weighs a tenth").isCloseTo(37_500.0 / 37_900.0, within(1e-9));
    }
}

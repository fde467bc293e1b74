package io.flowsql.job.pacing;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdleDetectorTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void idleOnlyAfterTheOffsetsStayStillForTheWholeWindowAndBusyAtTheFirstMove() {
        IdleDetector detector = new IdleDetector(10 * SECOND, 0);
        assertThat(detector.observe(OptionalLong.of(5), 1 * SECOND)).isEmpty();          // first reading: a change
        assertThat(detector.observe(OptionalLong.of(5), 10 * SECOND)).isEmpty();         // still for 9 s
        assertThat(detector.observe(OptionalLong.of(5), 11 * SECOND)).contains(true);    // still for 10 s: idle
        assertThat(detector.observe(OptionalLong.of(5), 40 * SECOND)).isEmpty();         // stays idle, no repeat
        assertThat(detector.idle()).isTrue();
        assertThat(detector.observe(OptionalLong.of(6), 41 * SECOND)).contains(false);   // one write: busy at once
        assertThat(detector.observe(OptionalLong.of(6), 50 * SECOND)).isEmpty();
        assertThat(detector.observe(OptionalLong.of(6), 51 * SECOND)).contains(true);
    }

    @Test
    void aFailedReadingCountsAsBusySoAnUnreachableBrokerNeverSlowsCheckpoints() {
        IdleDetector detector = new IdleDetector(2 * SECOND, 0);
        detector.observe(OptionalLong.of(7), 0);
        assertThat(detector.observe(OptionalLong.of(7), 3 * SECOND)).isEqualTo(Optional.of(true));
        assertThat(detector.observe(OptionalLong.empty(), 4 * SECOND)).contains(false);
        assertThat(detector.observe(OptionalLong.empty(), 9 * SECOND)).isEmpty();        // failures keep it busy
        assertThat(detector.observe(OptionalLong.of(7), 10 * SECOND)).isEmpty();         // the window starts again
        assertThat(detector.observe(OptionalLong.of(7), 12 * SECOND)).contains(true);
    }

    @Test
    void theWindowMustBePositive() {
        assertThatThrownBy(() -> new IdleDetector(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.flowsql.job.pacing;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Decides from the watched topics' summed end offsets whether the job is idle: idle once the sum has not moved for
 * {@code idleAfterNanos}, busy again at the first observation that it moved. A failed observation counts as busy, so an
 * unreachable broker never slows the checkpoints down. Plain Java, driven by the enumerator with its own clock.
 */
final class IdleDetector {
    private final long idleAfterNanos;
    private long lastTotal = Long.MIN_VALUE;
    private long lastChangeNanos;
    private boolean idle;

    IdleDetector(long idleAfterNanos, long startNanos) {
        if (idleAfterNanos <= 0) {
            throw new IllegalArgumentException("idleAfterNanos must be positive");
        }
        this.idleAfterNanos = idleAfterNanos;
        this.lastChangeNanos = startNanos;
    }

    /**
     * @param total the summed end offsets now, empty when they could not be read
     * @return the new state (true = idle) when it changed with this observation, else empty
     */
    Optional<Boolean> observe(OptionalLong total, long nowNanos) {
        boolean moved = total.isEmpty() || total.getAsLong() != lastTotal;
        if (moved) {
            lastChangeNanos = nowNanos;
            lastTotal = total.isEmpty() ? Long.MIN_VALUE : total.getAsLong();
        }
        boolean nowIdle = !moved && nowNanos - lastChangeNanos >= idleAfterNanos;
        if (nowIdle == idle) {
            return Optional.empty();
        }
        idle = nowIdle;
        return Optional.of(nowIdle);
    }

    boolean idle() {
        return idle;
    }
}

package io.flowsql.config.pacing;

import io.flowsql.config.Settings;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.List;

/**
 * The pacing room: when the job counts as idle and how often it checkpoints then (read by io.flowsql.job.IdlePacing
 * and io.flowsql.job.pacing); its keys keep the job.* names they were published under.
 */
public final class PacingOptions {
    private PacingOptions() {}

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL_IDLE = ConfigOptions.key("job.checkpoint-interval-idle")
            .durationType().defaultValue(Duration.ofSeconds(30))
            .withDescription("Checkpoint interval while the job is idle (no question, answer, dead letter or feedback "
                    + "written for job.idle-after); the short interval returns within a second of the next write. 0 = "
                    + "always job.checkpoint-interval (docs/MEASUREMENTS.md, idle cost).");
    public static final ConfigOption<Duration> IDLE_AFTER = ConfigOptions.key("job.idle-after")
            .durationType().defaultValue(Duration.ofSeconds(30))
            .withDescription("How long the job's topics must stay still before checkpoints move to job.checkpoint-interval-idle.");

    public static List<ConfigOption<?>> options() {
        return List.of(CHECKPOINT_INTERVAL_IDLE, IDLE_AFTER);
    }

    /** Fails naming the key when a value is out of range (the idle interval's bound by the transaction time-out is the job's). */
    public static void validate(Settings settings) {
        if (settings.get(CHECKPOINT_INTERVAL_IDLE).isNegative()) {
            throw new IllegalArgumentException(CHECKPOINT_INTERVAL_IDLE.key() + " must be 0 or positive");
        }
        Duration after = settings.get(IDLE_AFTER);
        if (after.isZero() || after.isNegative()) {
            throw new IllegalArgumentException(IDLE_AFTER.key() + " must be positive");
        }
    }
}

package io.flowsql.config.feedback;

import io.flowsql.config.Settings;
import io.flowsql.config.sql.SqlOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.List;

/**
 * The feedback room: how much of the feedback topic (kafka.topic.feedback) the job keeps as live examples, how many a
 * question carries, how long a verdict may come, and the budget of checking a feedback's SQL before it is learned.
 */
public final class FeedbackOptions {
    private FeedbackOptions() {}

    public static final ConfigOption<Integer> MAX_PER_DATABASE = ConfigOptions.key("feedback.max-entries-per-database")
            .intType().defaultValue(200)
            .withDescription("Live examples kept per database at most; the oldest (by feedback timestamp) is evicted first.");
    public static final ConfigOption<Integer> MAX_BYTES = ConfigOptions.key("feedback.max-bytes-per-database")
            .intType().defaultValue(1024 * 1024)
            .withDescription("Bytes of live examples kept per database at most (text, about 2 bytes a character); the oldest go first.");
    public static final ConfigOption<Duration> MAX_AGE = ConfigOptions.key("feedback.max-age")
            .durationType().defaultValue(Duration.ofDays(30))
            .withDescription("A live example or tombstone older than this (since its feedback's timestamp) is forgotten.");
    public static final ConfigOption<Integer> EXAMPLES_PER_REQUEST = ConfigOptions.key("feedback.examples-per-request")
            .intType().defaultValue(8)
            .withDescription("Live examples of its database a question carries to the stages at most (the most alike), ranked there with the file library.");
    public static final ConfigOption<Duration> VERDICT_WINDOW = ConfigOptions.key("feedback.verdict-window")
            .durationType().defaultValue(Duration.ofHours(1))
            .withDescription("How long an answer is remembered for a verdict on it (by request_id); a later verdict is a dead letter (unknown_request).");
    public static final ConfigOption<Duration> CHECK_TIMEOUT = ConfigOptions.key("feedback.check-timeout")
            .durationType().defaultValue(Duration.ofSeconds(30))
            .withDescription("Flink-side limit of running one feedback's SQL before it is learned (the statement's own budget is sql.query-timeout); "
                    + "at least sql.query-timeout.");

    public static List<ConfigOption<?>> options() {
        return List.of(MAX_PER_DATABASE, MAX_BYTES, MAX_AGE, EXAMPLES_PER_REQUEST, VERDICT_WINDOW, CHECK_TIMEOUT);
    }

    /** Fails naming the key when a value is out of range or ends after the statement budget it wraps. */
    public static void validate(Settings settings) {
        for (ConfigOption<Integer> bound : List.of(MAX_PER_DATABASE, MAX_BYTES, EXAMPLES_PER_REQUEST)) {
            settings.requireAtLeast(bound, 0);
        }
        Duration check = settings.get(CHECK_TIMEOUT);
        Duration statement = settings.get(SqlOptions.QUERY_TIMEOUT);
        // left at its default it follows sql.query-timeout (EngineWiring.feedbackCheckTimeout)
        if (settings.isSet(CHECK_TIMEOUT) && check.compareTo(statement) < 0) {
            throw new IllegalArgumentException(CHECK_TIMEOUT.key() + " (" + check + ") is shorter than "
                    + SqlOptions.QUERY_TIMEOUT.key() + " (" + statement + "): feedback SQL must end by the executor's limit first");
        }
    }
}

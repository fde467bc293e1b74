package io.flowsql.config.journal;

import io.flowsql.config.Settings;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;
import java.util.List;

/**
 * The stage journal's room: its compacted topic, when entries are dropped, how long they are kept and how much of
 * them each TaskManager keeps in memory (read by io.flowsql.job.journal).
 */
public final class JournalOptions {
    private JournalOptions() {}

    /** Journal entries each TaskManager keeps in memory unless journal.cache-max-entries says otherwise. */
    public static final int DEFAULT_CACHE_ENTRIES = 100_000;

    public static final ConfigOption<String> TOPIC = ConfigOptions.key("journal.topic")
            .stringType().defaultValue("")
            .withDescription("Compacted Kafka topic (on kafka.bootstrap-servers, created if missing) of the stage journal: every stage's model "
                    + "replies, keyed by request, stage and call, so a request processed again after a failure (or a "
                    + "resumed evaluation) re-uses them instead of asking the model; blank = no journal.");
    public static final ConfigOption<JournalRelease> RELEASE = ConfigOptions.key("journal.release")
            .enumType(JournalRelease.class).defaultValue(JournalRelease.ON_COMMIT)
            .withDescription("When a request's journal entries are dropped: on-commit (tombstones once its answer is committed) or retain "
                    + "(kept until journal.retention, so a later run can re-use them with the question option journal_of).");
    public static final ConfigOption<Duration> RETENTION = ConfigOptions.key("journal.retention")
            .durationType().defaultValue(Duration.ofDays(7))
            .withDescription("Longest time a journal entry is kept (the topic's retention.ms when the job creates it, and the local caches').");
    public static final ConfigOption<Integer> CACHE_MAX_ENTRIES = ConfigOptions.key("journal.cache-max-entries")
            .intType().defaultValue(DEFAULT_CACHE_ENTRIES)
            .withDescription("Most journal entries each TaskManager keeps in memory; past it (or journal.cache-max-bytes) the oldest are "
                    + "dropped from memory (not from the topic), and a replay of theirs asks the model again.");
    public static final ConfigOption<MemorySize> CACHE_MAX_BYTES = ConfigOptions.key("journal.cache-max-bytes")
            .memoryType().defaultValue(MemorySize.ofMebiBytes(128))
            .withDescription("Most heap (estimated from the replies' text) the journal entries of one TaskManager take; the oldest go first.");

    public static List<ConfigOption<?>> options() {
        return List.of(TOPIC, RELEASE, RETENTION, CACHE_MAX_ENTRIES, CACHE_MAX_BYTES);
    }

    /** Fails naming the key when a value is out of range. */
    public static void validate(Settings settings) {
        Duration retention = settings.get(RETENTION);
        if (retention.isZero() || retention.isNegative()) {
            throw new IllegalArgumentException(RETENTION.key() + " must be positive: " + retention);
        }
        settings.requireAtLeast(CACHE_MAX_ENTRIES, 0);
    }
}

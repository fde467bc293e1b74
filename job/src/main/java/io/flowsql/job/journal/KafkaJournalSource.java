package io.flowsql.job.journal;

import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.journal.StageJournal;
import io.flowsql.journal.StageJournalSource;

import java.time.Duration;
import java.util.Objects;

/**
 * Opens the stage journal on a compacted Kafka topic; shipped with the engine configuration to every
 * TaskManager, each of which reads the topic into its own cache.
 *
 * @param kafka the brokers and client properties (the job's {@link KafkaClientFactory})
 * @param topic the journal topic (created compacted when missing)
 * @param retention how long an entry is kept at most when nothing releases it (the topic's retention.ms)
 * @param cacheMaxEntries most entries each TaskManager keeps in memory (oldest out first)
 * @param cacheMaxBytes most (estimated) bytes each TaskManager keeps in memory (oldest out first)
 */
public record KafkaJournalSource(KafkaClientFactory kafka, String topic, Duration retention, int cacheMaxEntries,
                                 long cacheMaxBytes) implements StageJournalSource {
    private static final long serialVersionUID = 1L;
    /** journal.cache-max-entries' default. */
    public static final int DEFAULT_CACHE_ENTRIES = io.flowsql.config.journal.JournalOptions.DEFAULT_CACHE_ENTRIES;
    /** journal.cache-max-bytes' default: 128 MiB. */
    public static final long DEFAULT_CACHE_BYTES = 128L << 20;

    /** With the default cache bounds. */
    public KafkaJournalSource(KafkaClientFactory kafka, String topic, Duration retention) {
        this(kafka, topic, retention, DEFAULT_CACHE_ENTRIES, DEFAULT_CACHE_BYTES);
    }

    /** On an unsecured broker, with the default cache bounds (tests, benchmarks). */
    public KafkaJournalSource(String bootstrapServers, String topic, Duration retention) {
        this(KafkaClientFactory.plain(bootstrapServers), topic, retention);
    }

    /** On an unsecured broker (tests, benchmarks). */
    public KafkaJournalSource(String bootstrapServers, String topic, Duration retention, int cacheMaxEntries,
                              long cacheMaxBytes) {
        this(KafkaClientFactory.plain(bootstrapServers), topic, retention, cacheMaxEntries, cacheMaxBytes);
    }

    public KafkaJournalSource {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(retention, "retention");
        if (topic.isBlank()) {
            throw new IllegalArgumentException("a Kafka stage journal needs brokers and a topic");
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("journal retention must be positive: " + retention);
        }
    }

    @Override
    public StageJournal open() {
        return KafkaStageJournal.open(this);
    }
}

package io.flowsql.job.journal;

import io.flowsql.journal.StageJournal;
import io.flowsql.journal.StageJournalSource;

import java.time.Duration;
import java.util.Objects;

/**
 * Opens the stage journal on a compacted Kafka topic; shipped with the engine configuration to every
 * TaskManager, each of which reads the topic into its own cache.
 *
 * @param bootstrapServers the brokers
 * @param topic the journal topic (created compacted when missing)
 * @param retention how long an entry is kept at most when nothing releases it (the topic's retention.ms)
 */
public record KafkaJournalSource(String bootstrapServers, String topic, Duration retention) implements StageJournalSource {
    private static final long serialVersionUID = 1L;

    public KafkaJournalSource {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(retention, "retention");
        if (topic.isBlank() || bootstrapServers.isBlank()) {
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

package io.flowsql.job.journal;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The journal topic as the admin client sees it: created when missing (one partition,
 * {@code cleanup.policy=compact,delete}, {@code retention.ms} = the journal's retention, so entries nothing releases
 * still go away in time), and its end offsets for catching up.
 */
final class JournalTopic implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalTopic.class);
    private static final long SEGMENT_MS = Duration.ofHours(1).toMillis();
    private static final long ADMIN_WAIT_SECONDS = 30;

    private final Admin admin;
    private final String topic;

    private JournalTopic(Admin admin, String topic) {
        this.admin = admin;
        this.topic = topic;
    }

    /** Creates the topic of {@code source} when it is missing; the admin client stays open for {@link #endOffsets}. */
    static JournalTopic ensure(KafkaJournalSource source) {
        JournalTopic journalTopic = new JournalTopic(source.kafka().admin(Map.of()), source.topic());
        try {
            journalTopic.create(source.retention());
            return journalTopic;
        } catch (RuntimeException e) {
            journalTopic.close();
            throw e;
        }
    }

    private void create(Duration retention) {
        Map<String, String> configs = Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.toMillis()),
                TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Math.min(SEGMENT_MS, retention.toMillis())));
        try {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty()).configs(configs)))
                    .all().get(ADMIN_WAIT_SECONDS, TimeUnit.SECONDS);
            LOG.info("created stage journal topic {} ({})", topic, configs);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create stage journal topic " + topic + ": "
                        + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating the stage journal topic", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from Kafka creating stage journal topic " + topic, e);
        }
    }

    /** The end offsets of {@code partitions} now (empty when interrupted). */
    Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
        try {
            Map<TopicPartition, Long> ends = new HashMap<>();
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                    : admin.listOffsets(latest).all().get(ADMIN_WAIT_SECONDS, TimeUnit.SECONDS).entrySet()) {
                ends.put(e.getKey(), e.getValue().offset());
            }
            return ends;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the end offsets of stage journal topic " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}

package io.flowsql.job.journal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.journal.JournalCache;
import io.flowsql.journal.JournalEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the whole journal topic, from its beginning, into the local {@link JournalCache} on a background thread:
 * last write wins (as compaction keeps a key's last record), a tombstone removes the key, and once a minute entries
 * older than the retention are pruned (the topic drops them too). It commits nothing: it is assigned, not subscribed.
 */
final class JournalReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalReader.class);
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
    private static final Map<String, String> CONSUMER_DEFAULTS = Map.of(
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");

    private final String topic;
    private final long retentionMillis;
    private final JournalCache cache;
    private final ObjectMapper json = new ObjectMapper();
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    JournalReader(KafkaJournalSource source, JournalCache cache) {
        this.topic = source.topic();
        this.retentionMillis = source.retention().toMillis();
        this.cache = cache;
        this.consumer = source.kafka().consumer(CONSUMER_DEFAULTS, new StringDeserializer(), new ByteArrayDeserializer());
        try {
            this.partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        } catch (RuntimeException e) {
            consumer.close(Duration.ofSeconds(5));
            throw e;
        }
        this.thread = new Thread(this::readLoop, "stage-journal-reader-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    List<TopicPartition> partitions() {
        return partitions;
    }

    /** Whether the reader is still reading. */
    boolean running() {
        return running;
    }

    /** Whether the reader has passed {@code ends} on every partition. */
    boolean reached(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /** Where the reader is, per partition (for logs). */
    Map<TopicPartition, Long> positions() {
        return Map.copyOf(positions);
    }

    private void readLoop() {
        long nextPrune = System.currentTimeMillis() + PRUNE_EVERY.toMillis();
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    apply(r);
                }
                partitions.forEach(p -> positions.put(p, consumer.position(p)));
                if (System.currentTimeMillis() > nextPrune) {
                    cache.prune(System.currentTimeMillis() - retentionMillis);
                    nextPrune = System.currentTimeMillis() + PRUNE_EVERY.toMillis();
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("stage journal reader of {} stopped; entries written elsewhere are no longer seen here", topic, e);
        } finally {
            running = false;
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            cache.remove(r.key());
            return;
        }
        try {
            cache.put(r.key(), json.readValue(r.value(), JournalEntry.class));
        } catch (IOException e) {
            LOG.warn("stage journal: unreadable entry {} at {}-{}@{} skipped", r.key(), r.topic(), r.partition(), r.offset());
        }
    }

    /** Stops the reading thread (up to 10 s); the consumer is closed on it. */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

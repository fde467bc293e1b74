package io.flowsql.job.journal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.journal.JournalCache;
import io.flowsql.journal.JournalEntry;
import io.flowsql.journal.StageJournal;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The stage journal on a compacted Kafka topic keyed by the entry key, made of its topic ({@link JournalTopic}), a
 * writer ({@link JournalWriter}) and a reader into a local cache ({@link JournalReader}); this class catches up and
 * answers. {@link #find} is a lookup in the cache; {@link #record} puts the entry into the cache at once and completes
 * when the broker has acknowledged it; {@link #release} queues tombstones for a request's keys and never blocks (it
 * runs on a Flink task thread).
 *
 * <p>The local copy is a {@link JournalCache}: bounded in entries and bytes (oldest first out), last write wins as
 * on the compacted topic. The topic has one partition and every TaskManager reads all of it: a request's stage calls
 * run on whichever subtask the stream hands it to (the stage operators are not keyed, and a rescale moves dialogues
 * between TaskManagers), so no TaskManager can tell in advance which keys it will be asked for; the bounds, not a
 * partitioning, keep its memory in check.
 */
public final class KafkaStageJournal implements StageJournal {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaStageJournal.class);
    private static final Duration CATCH_UP_LIMIT = Duration.ofSeconds(60);

    private final String topic;
    private final ObjectMapper json = new ObjectMapper();
    private final JournalCache entries;
    private final JournalTopic journalTopic;
    private final JournalWriter writer;
    private final JournalReader reader;

    private KafkaStageJournal(KafkaJournalSource source, JournalTopic journalTopic) {
        this.topic = source.topic();
        this.journalTopic = journalTopic;
        this.entries = new JournalCache(source.cacheMaxEntries(), source.cacheMaxBytes());
        this.writer = new JournalWriter(source);
        try {
            this.reader = new JournalReader(source, entries);
        } catch (RuntimeException e) {
            writer.close();
            throw e;
        }
    }

    /** Creates the topic if needed, starts reading it, and returns once everything already in it is cached. */
    static KafkaStageJournal open(KafkaJournalSource source) {
        JournalTopic journalTopic = JournalTopic.ensure(source);
        KafkaStageJournal journal;
        try {
            journal = new KafkaStageJournal(source, journalTopic);
        } catch (RuntimeException e) {
            journalTopic.close();
            throw e;
        }
        journal.catchUp();
        LOG.info("stage journal on topic {}: {} entries cached ({} bytes estimated, {} evicted)", source.topic(),
                journal.entries.size(), journal.entries.bytes(), journal.entries.evicted());
        return journal;
    }

    @Override
    public Optional<JournalEntry> find(String key) {
        return entries.get(key);
    }

    @Override
    public CompletableFuture<Void> record(String key, JournalEntry entry) {
        byte[] value;
        try {
            value = json.writeValueAsBytes(entry);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new UncheckedIOException(e));
        }
        entries.put(key, entry);
        return writer.write(key, value);
    }

    @Override
    public void release(String journalId) {
        for (String key : entries.removeJournal(journalId)) {
            boolean queued = writer.tombstone(key, error -> LOG.warn(
                    "stage journal: tombstone for {} not written ({}); the topic's retention drops it", key, error.toString()));
            if (!queued) {
                LOG.warn("stage journal: tombstone for {} not queued ({} sends waiting); the topic's retention drops it",
                        key, JournalWriter.QUEUE);
            }
        }
    }

    /** Waits (up to a minute) until the reader has passed the topic's end offsets as they are now. */
    @Override
    public void catchUp() {
        Map<TopicPartition, Long> ends = journalTopic.endOffsets(reader.partitions());
        long deadline = System.nanoTime() + CATCH_UP_LIMIT.toNanos();
        while (!reader.reached(ends)) {
            if (!reader.running() || System.nanoTime() > deadline) {
                LOG.warn("stage journal {} did not catch up with {} (at {}); replayed calls may be asked again",
                        topic, ends, reader.positions());
                return;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Entries in the local cache (for tests and logs). */
    public int size() {
        return entries.size();
    }

    /** Estimated bytes of the local cache (for tests and benchmarks). */
    public long cachedBytes() {
        return entries.bytes();
    }

    @Override
    public void close() {
        reader.close();
        writer.close();
        journalTopic.close();
    }
}

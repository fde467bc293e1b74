package io.flowsql.job.journal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.journal.JournalCache;
import io.flowsql.journal.JournalEntry;
import io.flowsql.journal.StageJournal;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The stage journal on a compacted Kafka topic keyed by the entry key. Each instance (one per TaskManager
 * engine) reads the whole topic into a local cache on a background thread, so {@link #find} is a map
 * lookup; {@link #record} puts the entry into the cache at once and completes when the broker has
 * acknowledged it (acks=all, idempotent producer); {@link #release} writes tombstones for a request's
 * keys. The topic is created when missing with {@code cleanup.policy=compact,delete} and
 * {@code retention.ms} = the configured retention, so entries nothing releases still go away in time.
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
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
    private static final long SEGMENT_MS = Duration.ofHours(1).toMillis();
    static final int SEND_QUEUE = 10_000;

    private final String topic;
    private final long retentionMillis;
    private final ObjectMapper json = new ObjectMapper();
    private final Admin admin;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final JournalCache entries;
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final Thread reader;
    /**
     * Sends entries and tombstones off the caller's thread: a send may block up to max.block.ms (metadata, a full
     * buffer), and release is called on a Flink task thread. Bounded: a send that finds the queue full is not made
     * (a tombstone is then left to the topic's retention, an entry's future fails).
     */
    private final ThreadPoolExecutor sends = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(SEND_QUEUE), r -> {
                Thread t = new Thread(r, "stage-journal-sends");
                t.setDaemon(true);
                return t;
            });
    /** Completes the record futures off the producer's I/O thread (what follows is the stage's own work). */
    private final ExecutorService completions = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "stage-journal-acks");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean running = true;

    private KafkaStageJournal(KafkaJournalSource source, Admin admin) {
        this.topic = source.topic();
        this.retentionMillis = source.retention().toMillis();
        this.entries = new JournalCache(source.cacheMaxEntries(), source.cacheMaxBytes());
        this.admin = admin;
        this.producer = source.kafka().producer(PRODUCER_DEFAULTS, new StringSerializer(), new ByteArraySerializer());
        this.consumer = source.kafka().consumer(CONSUMER_DEFAULTS, new StringDeserializer(), new ByteArrayDeserializer());
        this.partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.reader = new Thread(this::readLoop, "stage-journal-reader-" + topic);
        reader.setDaemon(true);
    }

    /** Creates the topic if needed, starts reading it, and returns once everything already in it is cached. */
    static KafkaStageJournal open(KafkaJournalSource source) {
        Admin admin = source.kafka().admin(Map.of());
        KafkaStageJournal journal;
        try {
            ensureTopic(admin, source);
            journal = new KafkaStageJournal(source, admin);
        } catch (RuntimeException e) {
            admin.close();
            throw e;
        }
        journal.reader.start();
        journal.catchUp();
        LOG.info("stage journal on topic {}: {} entries cached ({} bytes estimated, {} evicted)", source.topic(),
                journal.entries.size(), journal.entries.bytes(), journal.entries.evicted());
        return journal;
    }

    private static void ensureTopic(Admin admin, KafkaJournalSource source) {
        Map<String, String> configs = Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(source.retention().toMillis()),
                TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Math.min(SEGMENT_MS, source.retention().toMillis())));
        try {
            admin.createTopics(List.of(new NewTopic(source.topic(), Optional.of(1), Optional.empty()).configs(configs)))
                    .all().get(30, TimeUnit.SECONDS);
            LOG.info("created stage journal topic {} ({})", source.topic(), configs);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create stage journal topic " + source.topic() + ": "
                        + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating the stage journal topic", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from Kafka creating stage journal topic " + source.topic(), e);
        }
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
        CompletableFuture<Void> durable = new CompletableFuture<>();
        if (!send(key, value, error -> completions.execute(() -> {
            // Off the producer's I/O thread: what follows is the stage's own work.
            if (error == null) {
                durable.complete(null);
            } else {
                durable.completeExceptionally(error);
            }
        }))) {
            durable.completeExceptionally(new IllegalStateException("stage journal " + topic + ": "
                    + SEND_QUEUE + " sends already queued"));
        }
        return durable;
    }

    @Override
    public void release(String journalId) {
        for (String key : entries.removeJournal(journalId)) {
            boolean queued = send(key, null, error -> {
                if (error != null) {
                    LOG.warn("stage journal: tombstone for {} not written ({}); the topic's retention drops it", key,
                            error.toString());
                }
            });
            if (!queued) {
                LOG.warn("stage journal: tombstone for {} not queued ({} sends waiting); the topic's retention drops it",
                        key, SEND_QUEUE);
            }
        }
    }

    /** Queues a send on the sending thread; false when the queue is full. {@code done} gets null or the failure. */
    private boolean send(String key, byte[] value, java.util.function.Consumer<Exception> done) {
        try {
            sends.execute(() -> {
                try {
                    producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> done.accept(error));
                } catch (RuntimeException e) {
                    done.accept(e);
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Waits (up to a minute) until the reader has passed the topic's end offsets as they are now. */
    @Override
    public void catchUp() {
        Map<TopicPartition, Long> ends = endOffsets();
        long deadline = System.nanoTime() + CATCH_UP_LIMIT.toNanos();
        while (!reached(ends)) {
            if (!running || System.nanoTime() > deadline) {
                LOG.warn("stage journal {} did not catch up with {} (at {}); replayed calls may be asked again",
                        topic, ends, positions);
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

    private boolean reached(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    private Map<TopicPartition, Long> endOffsets() {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
        try {
            Map<TopicPartition, Long> ends = new HashMap<>();
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                    : admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet()) {
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

    private void readLoop() {
        long nextPrune = System.currentTimeMillis() + PRUNE_EVERY.toMillis();
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    apply(r);
                }
                partitions.forEach(p -> positions.put(p, consumer.position(p)));
                if (System.currentTimeMillis() > nextPrune) {
                    entries.prune(System.currentTimeMillis() - retentionMillis);
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
            entries.remove(r.key());
            return;
        }
        try {
            // last write wins, as compaction keeps the last record of a key
            entries.put(r.key(), json.readValue(r.value(), JournalEntry.class));
        } catch (IOException e) {
            LOG.warn("stage journal: unreadable entry {} at {}-{}@{} skipped", r.key(), r.topic(), r.partition(), r.offset());
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            reader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sends.shutdown();
        try {
            sends.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
        completions.shutdown();
        admin.close(Duration.ofSeconds(5));
    }

    /** The journal producer's own settings: durable (acks=all, idempotent), prompt, and bounded in its waits. */
    private static final Map<String, String> PRODUCER_DEFAULTS = Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
            ProducerConfig.LINGER_MS_CONFIG, "1",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000",
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
            ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");

    /** The reader commits nothing and starts from the topic's beginning (it is assigned, not subscribed). */
    private static final Map<String, String> CONSUMER_DEFAULTS = Map.of(
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
}

package io.flowsql.job.journal;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Writes entries and tombstones to the journal topic off the caller's thread: a send may block up to
 * {@code max.block.ms} (metadata, a full buffer), and {@code release} is called on a Flink task thread. The queue is
 * bounded ({@link #QUEUE}): a send that finds it full is not made, and the caller is told at once. An entry's
 * acknowledgement is handed to a thread of its own, off the producer's I/O thread, since what follows is the stage's
 * own work.
 */
final class JournalWriter implements AutoCloseable {
    static final int QUEUE = 10_000;

    /** The journal producer's own settings: durable (acks=all, idempotent), prompt, and bounded in its waits. */
    private static final Map<String, String> PRODUCER_DEFAULTS = Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
            ProducerConfig.LINGER_MS_CONFIG, "1",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000",
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
            ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");

    private final String topic;
    private final KafkaProducer<String, byte[]> producer;
    private final ThreadPoolExecutor sends = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE), daemon("stage-journal-sends"));
    private final ExecutorService acks = Executors.newSingleThreadExecutor(daemon("stage-journal-acks"));

    JournalWriter(KafkaJournalSource source) {
        this.topic = source.topic();
        this.producer = source.kafka().producer(PRODUCER_DEFAULTS, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Writes {@code value} under {@code key}; completes (on the acks thread) once the broker has it, fails when it
     * does not or when {@link #QUEUE} sends are already waiting.
     */
    CompletableFuture<Void> write(String key, byte[] value) {
        CompletableFuture<Void> durable = new CompletableFuture<>();
        boolean queued = send(key, value, error -> acks.execute(() -> {
            if (error == null) {
                durable.complete(null);
            } else {
                durable.completeExceptionally(error);
            }
        }));
        if (!queued) {
            durable.completeExceptionally(new IllegalStateException("stage journal " + topic + ": " + QUEUE
                    + " sends already queued"));
        }
        return durable;
    }

    /**
     * Queues a tombstone for {@code key}; false when the queue is full. {@code failed} gets the failure of a queued
     * send, on the producer's I/O thread.
     */
    boolean tombstone(String key, Consumer<Exception> failed) {
        return send(key, null, error -> {
            if (error != null) {
                failed.accept(error);
            }
        });
    }

    private boolean send(String key, byte[] value, Consumer<Exception> done) {
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

    /** Sends what is queued (up to 10 s), then closes the producer. */
    @Override
    public void close() {
        sends.shutdown();
        try {
            sends.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
        acks.shutdown();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}

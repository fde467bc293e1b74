package io.flowsql.job;

import io.flowsql.events.EventJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Watches the answers topic as a read_committed client, on a thread of its own, and notes when each answer became
 * visible, so a fault test can tell how long after the fault the first answer to a question sent after it arrived.
 */
final class AnswerArrivals implements AutoCloseable {
    private final Map<String, Long> firstSeenNanos = new ConcurrentHashMap<>();
    private final AtomicInteger records = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;

    AnswerArrivals(String bootstrapServers, String topic) {
        thread = new Thread(() -> {
            try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
                int seen = 0;
                while (running) {
                    var all = reader.drain(Duration.ofMillis(100));
                    for (ConsumerRecord<byte[], byte[]> r : all.subList(seen, all.size())) {
                        firstSeenNanos.putIfAbsent(EventJson.parseAnswer(r.value()).requestId, System.nanoTime());
                    }
                    seen = all.size();
                    records.set(seen);
                }
            }
        }, "answer-arrivals");
        thread.setDaemon(true);
        thread.start();
    }

    /** Answer records seen so far (duplicates included). */
    int records() {
        return records.get();
    }

    /**
     * Waits until an answer to one of {@code requestIds} arrives; returns the nanoTime it was first seen, or throws
     * after {@code within}.
     */
    long awaitAnyOf(java.util.Collection<String> requestIds, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            long first = requestIds.stream().map(firstSeenNanos::get).filter(java.util.Objects::nonNull)
                    .mapToLong(Long::longValue).min().orElse(0);
            if (first != 0) {
                return first;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no answer to any of " + requestIds.size() + " questions within " + within);
    }

    /** Waits until answers to {@code count} distinct questions were seen. */
    void awaitDistinct(int count, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (firstSeenNanos.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + firstSeenNanos.size() + " of " + count + " answers within " + within);
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }

}

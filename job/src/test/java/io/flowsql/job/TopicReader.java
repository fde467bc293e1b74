package io.flowsql.job;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/** Reads a topic from the start as a read_committed client would, for tests that check what the job committed. */
final class TopicReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();

    TopicReader(String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
    }

    /** Polls until at least {@code count} records arrived in total or the time is up; returns all seen so far. */
    List<ConsumerRecord<byte[], byte[]>> readAtLeast(int count, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (seen.size() < count && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        }
        return List.copyOf(seen);
    }

    /** Keeps polling for {@code quiet} more, to catch duplicates that would follow. */
    List<ConsumerRecord<byte[], byte[]>> drain(Duration quiet) {
        long deadline = System.nanoTime() + quiet.toNanos();
        while (System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        }
        return List.copyOf(seen);
    }

    @Override
    public void close() {
        consumer.close();
    }
}

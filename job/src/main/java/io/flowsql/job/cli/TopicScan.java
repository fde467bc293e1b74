package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClients;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a topic's committed records from a starting point up to its committed end as of now (read_committed), for
 * the CLI's checks before it sends feedback; partitions are assigned, so no group is joined and nothing is committed.
 */
final class TopicScan {
    private TopicScan() {}

    /** Every committed record of {@code topic}, from the beginning to the end as it is now; false when time ran out. */
    static boolean all(String bootstrapServers, String topic, Duration within, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        return from(bootstrapServers, topic, null, within, each);
    }

    /**
     * The committed records of {@code topic} from {@code start} (per partition; null: the beginning) to its end as it is
     * now; false when {@code within} ran out first.
     */
    static boolean from(String bootstrapServers, String topic, Map<TopicPartition, Long> start, Duration within,
                        Consumer<ConsumerRecord<byte[], byte[]>> each) {
        long deadline = System.nanoTime() + within.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(bootstrapServers, "flowsql-cli-scan", false)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            if (start == null) {
                consumer.seekToBeginning(partitions);
            } else {
                partitions.forEach(p -> consumer.seek(p, start.getOrDefault(p, 0L)));
            }
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                consumer.poll(Duration.ofMillis(200)).forEach(each);
            }
            return true;
        }
    }

    /** The topic's committed end offsets now. */
    static Map<TopicPartition, Long> ends(String bootstrapServers, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(bootstrapServers, "flowsql-cli-scan", false)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            return consumer.endOffsets(partitions);
        }
    }
}

package io.flowsql.config.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.Map;
import java.util.UUID;

/**
 * The Kafka clients every user-side tool needs (the CLI, the console, bulk evaluation), made by the job's
 * {@link KafkaClientFactory}: an idempotent producer of questions and a read_committed reader of answers in a group of
 * its own, so exactly-once answers are seen only once committed.
 */
public final class KafkaClients {
    private KafkaClients() {}

    /** Keys and values as bytes; acks=all and idempotence, so a retried send is not a second question. */
    public static KafkaProducer<byte[], byte[]> questionsProducer(KafkaClientFactory kafka) {
        return kafka.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** On an unsecured broker (tests, benchmarks). */
    public static KafkaProducer<byte[], byte[]> questionsProducer(String bootstrapServers) {
        return questionsProducer(KafkaClientFactory.plain(bootstrapServers));
    }

    /**
     * A reader of committed answers only, in a fresh consumer group named {@code <groupPrefix>-<uuid>} that commits
     * nothing, from the beginning of the topic or (fromLatest) from now on.
     */
    public static KafkaConsumer<byte[], byte[]> answersReader(KafkaClientFactory kafka, String groupPrefix, boolean fromLatest) {
        return kafka.consumer(Map.of(
                        ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + "-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromLatest ? "latest" : "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** On an unsecured broker (tests, benchmarks). */
    public static KafkaConsumer<byte[], byte[]> answersReader(String bootstrapServers, String groupPrefix, boolean fromLatest) {
        return answersReader(KafkaClientFactory.plain(bootstrapServers), groupPrefix, fromLatest);
    }
}

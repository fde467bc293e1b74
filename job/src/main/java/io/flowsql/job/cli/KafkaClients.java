package io.flowsql.job.cli;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.Properties;
import java.util.UUID;

/**
 * The Kafka clients every user-side tool needs (the CLI, bulk evaluation): an idempotent producer of questions and a
 * read_committed reader of answers in a group of its own, so exactly-once answers are seen only once committed.
 */
public final class KafkaClients {
    private KafkaClients() {}

    /** Keys and values as bytes; acks=all and idempotence, so a retried send is not a second question. */
    public static KafkaProducer<byte[], byte[]> questionsProducer(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A reader of committed answers only, in a fresh consumer group named {@code <groupPrefix>-<uuid>} that commits
     * nothing, from the beginning of the topic or (fromLatest) from now on.
     */
    public static KafkaConsumer<byte[], byte[]> answersReader(String bootstrapServers, String groupPrefix, boolean fromLatest) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + "-" + UUID.randomUUID());
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromLatest ? "latest" : "earliest");
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}

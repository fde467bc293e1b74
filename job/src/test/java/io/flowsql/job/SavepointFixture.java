package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.EventJson;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A savepoint written by an earlier release of the job, kept under job/src/test/resources/savepoints/previous-release/
 * with what it needs to be restored elsewhere: the job's options, the dialogue it was stopped in the middle of, and
 * the contents of the Kafka topics at the stop (the savepoint holds topic offsets, so a fresh broker gets the same
 * records at the same offsets before the job is restored). {@link SavepointFixtureWriter} writes it,
 * {@link SavepointUpgradeITCase} restores it; docs/OPERATIONS.md says how to refresh it.
 */
final class SavepointFixture {
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    static final String SAVEPOINT = "savepoint";
    static final String TOPICS_FILE = "topics.json";
    static final String DESCRIPTION_FILE = "fixture.json";
    /** A record at an offset the stop left without a readable record (a transaction marker): skipped by the job's readers. */
    static final byte[] FILLER = "savepoint-fixture filler".getBytes(StandardCharsets.UTF_8);

    private SavepointFixture() {}

    static Path dir() {
        return Path.of(System.getProperty("flowsql.project.dir"), "job", "src", "test", "resources", "savepoints", "previous-release");
    }

    /** One TaskManager with a slot per parallel instance. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(PARALLELISM).build());
    }

    static TopicSpec[] topics() {
        return JobTopics.specs(PARTITIONS);
    }

    /** The options of both the writing and the restoring job (same topics, group and transactional ids as in the savepoint). */
    static JobConfig config(String bootstrapServers, Path sharedData, String llmBaseUrl) {
        return new JobTopics(bootstrapServers).jobConfig(sharedData, llmBaseUrl, Map.of(
                JobOptions.PARALLELISM.key(), Integer.toString(PARALLELISM),
                JobOptions.STRATEGY.key(), "mmsql",
                JobOptions.CHECKPOINT_INTERVAL.key(), "1s",
                JobOptions.FEEDBACK_ISOLATION.key(), "read_committed",   // as when the fixture was written
                JobOptions.GROUP_ID.key(), "flowsql-fixture",
                JobOptions.TRANSACTIONAL_ID_PREFIX.key(), "flowsql-fixture",
                // Wall-clock times are in the savepoint: the release timer of a held turn, and the last-write times
                // the state TTLs count from. Both far beyond any fixture's age, or a restore more than a day after the
                // fixture was written releases the held turn early, or finds the dialogue's history (and the request
                // ids) expired: turn 3 was then answered without turn 1 in its history (CI, two days after writing).
                JobOptions.FEEDBACK_WAIT.key(), "3650d",
                JobOptions.HISTORY_TTL.key(), "3650d",
                JobOptions.REQUEST_ID_TTL.key(), "3650d"));
    }

    /** Every record of {@code topics} (read_committed) with its partition and offset, and each partition's end offset. */
    static ObjectNode dump(String bootstrapServers, List<String> topics) {
        ObjectNode out = EventJson.mapper().createObjectNode();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
            for (String topic : topics) {
                List<TopicPartition> partitions = new ArrayList<>();
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
                ObjectNode topicNode = out.putObject(topic);
                Map<Integer, ArrayNode> records = new TreeMap<>();
                for (TopicPartition tp : partitions) {
                    topicNode.putObject(Integer.toString(tp.partition())).put("end", ends.get(tp));
                    records.put(tp.partition(), ((ObjectNode) topicNode.get(Integer.toString(tp.partition()))).putArray("records"));
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        records.get(r.partition()).addObject().put("offset", r.offset())
                                .put("key", r.key() == null ? null : Base64.getEncoder().encodeToString(r.key()))
                                .put("value", new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Writes the dumped records to a fresh broker at the same offsets, a {@link #FILLER} where the dump has none;
     * returns how many fillers each topic got.
     */
    static Map<String, Integer> replay(String bootstrapServers, JsonNode dump) {
        Map<String, Integer> fillers = new TreeMap<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
            dump.fields().forEachRemaining(topic -> topic.getValue().fields().forEachRemaining(partition -> {
                int p = Integer.parseInt(partition.getKey());
                Map<Long, JsonNode> byOffset = new TreeMap<>();
                partition.getValue().path("records").forEach(r -> byOffset.put(r.path("offset").asLong(), r));
                long end = partition.getValue().path("end").asLong();
                for (long offset = 0; offset < end; offset++) {
                    JsonNode r = byOffset.get(offset);
                    byte[] key = r == null || r.path("key").isNull() ? null : Base64.getDecoder().decode(r.path("key").asText());
                    byte[] value = r == null ? FILLER : r.path("value").asText().getBytes(StandardCharsets.UTF_8);
                    if (r == null) {
                        fillers.merge(topic.getKey(), 1, Integer::sum);
                    }
                    RecordMetadata written = send(producer, new ProducerRecord<>(topic.getKey(), p, key, value));
                    if (written.offset() != offset) {
                        throw new IllegalStateException("replaying " + topic.getKey() + "-" + p + ": wrote offset "
                                + written.offset() + " instead of " + offset + " (the topic was not empty)");
                    }
                }
            }));
        }
        return fillers;
    }

    private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record) {
        try {
            return producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException("replaying " + record.topic(), e);
        }
    }

    static JsonNode read(Path file) throws IOException {
        return EventJson.mapper().readTree(file.toFile());
    }

    static void write(Path file, JsonNode node) throws IOException {
        EventJson.mapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), node);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "fixture-dump-" + UUID.randomUUID());
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}

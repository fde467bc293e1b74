package io.flowsql.devstack;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BrokerProperties#retention}, the bound deploy/kafka-start.sh puts on the local broker (--retain-mb): a partition
 * written well past the bound is cut back to it, oldest records first, so work/kafka stops growing across runs.
 */
class BrokerRetentionTest {
    private static final long KEEP = 2L << 20;
    private static final int RECORD = 100 * 1024;

    @Test
    void aPartitionWrittenPastTheBoundIsCutBackToIt() throws Exception {
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-kafka-retention-"),
                withoutStartDelay(BrokerProperties.retention(KEEP, Duration.ofMillis(500))))) {
            broker.createTopics(new TopicSpec("kept", 1));
            TopicPartition partition = new TopicPartition("kept", 0);
            Properties p = new Properties();
            p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
            int records = (int) (4 * KEEP / RECORD);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < records; i++) {
                    producer.send(new ProducerRecord<>("kept", new byte[RECORD]));
                }
                producer.flush();
            }
            Properties a = new Properties();
            a.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
            try (Admin admin = Admin.create(a)) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                long size = size(admin, partition);
                while (size > KEEP + (1L << 20) && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                    size = size(admin, partition);
                }
                // what is kept: at most the bound plus the segment being written (1 MiB)
                assertThat(size).as("bytes kept of %d written", (long) records * RECORD).isLessThanOrEqualTo(KEEP + (1L << 20));
                long earliest = admin.listOffsets(Map.of(partition, OffsetSpec.earliest())).all().get().get(partition).offset();
                long latest = admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
                assertThat(earliest).as("the oldest records were deleted").isPositive();
                assertThat(latest).as("the newest were kept").isEqualTo(records);
            }
        }
    }

    /**
     * The broker's log manager starts its retention checks {@code log.initial.task.delay.ms} (30 s) after start-up; the
     * test starts them at once (a quiet machine finished writing long before the first check: CI failed at 20 s).
     */
    private static Map<String, String> withoutStartDelay(Map<String, String> properties) {
        Map<String, String> all = new java.util.HashMap<>(properties);
        all.put("log.initial.task.delay.ms", "0");
        return all;
    }

    private static long size(Admin admin, TopicPartition partition) throws Exception {
        return admin.describeLogDirs(List.of(1)).allDescriptions().get().get(1).values().stream()
                .map(dir -> dir.replicaInfos().get(partition)).filter(java.util.Objects::nonNull)
                .mapToLong(info -> info.size()).sum();
    }
}

package io.flowsql.devstack;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LocalKafkaClusterTest {

    @Test
    void threeReplicasSurviveAKilledLeaderAndItsRestart(@TempDir Path dir) throws Exception {
        try (LocalKafkaCluster cluster = LocalKafkaCluster.start(dir.resolve("cluster"))) {
            cluster.createTopics(new TopicSpec("tx", 1));
            long[] pids = {cluster.pid(1), cluster.pid(2), cluster.pid(3)};
            assertThat(pids).as("each node is a process of its own").doesNotHaveDuplicates()
                    .doesNotContain(ProcessHandle.current().pid());
            try (Admin admin = admin(cluster)) {
                TopicDescription tx = admin.describeTopics(List.of("tx")).allTopicNames().get().get("tx");
                assertThat(tx.partitions().get(0).replicas()).as("three replicas").hasSize(3);
                String minIsr = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "tx")))
                        .all().get().values().iterator().next().get("min.insync.replicas").value();
                assertThat(minIsr).isEqualTo("2");
                int leader = tx.partitions().get(0).leader().id();

                try (KafkaProducer<String, String> producer = transactional(cluster)) {
                    producer.initTransactions();
                    send(producer, "before");
                    cluster.kill(leader);
                    assertThat(cluster.isAlive(leader)).isFalse();
                    send(producer, "while-down");
                    cluster.restart(leader);
                    send(producer, "after");
                }
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
            }
            assertThat(readCommitted(cluster, 3)).containsExactly("before", "while-down", "after");
        }
        assertThat(dir.resolve("cluster")).doesNotExist();
    }

    private static void send(KafkaProducer<String, String> producer, String value) {
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("tx", value));
        producer.commitTransaction();
    }

    private static Admin admin(LocalKafkaCluster cluster) {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        return Admin.create(p);
    }

    private static KafkaProducer<String, String> transactional(LocalKafkaCluster cluster) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "cluster-test");
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static List<String> readCommitted(LocalKafkaCluster cluster, int count) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "cluster-test-reader");
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("tx"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (out.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
            }
        }
        return out;
    }
}

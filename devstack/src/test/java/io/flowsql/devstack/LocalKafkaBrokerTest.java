package io.flowsql.devstack;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalKafkaBrokerTest {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 2), new TopicSpec("answers", 1));

    @Test
    void createsTheRequestedTopicsWithTheirPartitions() throws Exception {
        assertThat(KAFKA.broker().topicNames()).contains("questions", "answers");
        try (KafkaConsumer<String, String> consumer = consumer("read_uncommitted")) {
            assertThat(consumer.partitionsFor("questions")).hasSize(2);
        }
        KAFKA.broker().createTopics(new TopicSpec("questions", 2));
        assertThat(KAFKA.bootstrapServers()).startsWith("127.0.0.1:");
    }

    @Test
    void readCommittedConsumersSeeOnlyCommittedTransactions() {
        KAFKA.broker().createTopics(new TopicSpec("tx", 1));
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "devstack-test");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("tx", "k", "aborted"));
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("tx", "k", "committed"));
            producer.commitTransaction();
        }
        try (KafkaConsumer<String, String> consumer = consumer("read_committed")) {
            consumer.subscribe(List.of("tx"));
            List<String> seen = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 15_000;
            while (seen.isEmpty() && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(r.value());
                }
            }
            assertThat(seen).containsExactly("committed");
        }
    }

    @Test
    void topicSpecsParseAndRejectNonsense() {
        assertThat(TopicSpec.parse("answers:3")).isEqualTo(new TopicSpec("answers", 3));
        assertThat(TopicSpec.parse("dead-letters")).isEqualTo(new TopicSpec("dead-letters", 1));
        assertThatThrownBy(() -> TopicSpec.parse("x:0")).isInstanceOf(IllegalArgumentException.class);
    }

    private static KafkaConsumer<String, String> consumer(String isolation) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "devstack-test-" + isolation);
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }
}

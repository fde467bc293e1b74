package io.flowsql.console;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The answer follower's health states on a real broker, each reached the way it happens: {@code behind} when more
 * than {@link FollowerHealth#BEHIND_RECORDS} committed answers wait unread (answers of an open transaction do not
 * count, the follower cannot read them yet), {@code broker_unreachable} once the broker is stopped under a following
 * follower, and {@code down} when the follower's thread has ended (a topic name the broker refuses; the console closing).
 */
class FollowerHealthITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("answers", 2), new TopicSpec("dead-letters", 1));

    private static final int UNREAD = (int) FollowerHealth.BEHIND_RECORDS + 200;

    @Test
    void committedAnswersPastTheLimitAreBehindAndAnOpenTransactionIsNot() throws InterruptedException {
        KafkaClientFactory kafka = KafkaClientFactory.plain(KAFKA.bootstrapServers());
        List<TopicPartition> partitions = List.of(new TopicPartition("answers", 0), new TopicPartition("answers", 1));
        try (KafkaProducer<String, String> plain = kafka.producer(Map.of(), new StringSerializer(), new StringSerializer());
             KafkaProducer<String, String> transactional = kafka.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                     "follower-health-" + System.nanoTime()), new StringSerializer(), new StringSerializer());
             KafkaConsumer<byte[], byte[]> reader = KafkaClients.answersReader(kafka, "follower-health", false)) {
            reader.assign(partitions);
            reader.seekToEnd(partitions);
            assertThat(FollowerHealth.check(reader).state()).isEqualTo(FollowerHealth.State.FOLLOWING);

            send(plain, "plain", (int) FollowerHealth.BEHIND_RECORDS);
            FollowerHealth atTheLimit = FollowerHealth.check(reader);
            assertThat(atTheLimit.state()).as(atTheLimit.detail()).isEqualTo(FollowerHealth.State.FOLLOWING);
            assertThat(atTheLimit.lag()).isEqualTo(FollowerHealth.BEHIND_RECORDS);
            reader.seekToEnd(partitions);

            transactional.initTransactions();
            transactional.beginTransaction();
            send(transactional, "open", UNREAD);
            FollowerHealth open = FollowerHealth.check(reader);
            assertThat(open.state()).as("answers of an open transaction are not readable yet: " + open.detail())
                    .isEqualTo(FollowerHealth.State.FOLLOWING);
            assertThat(open.lag()).isZero();

            transactional.commitTransaction();
            // the commit markers are written just after commitTransaction returns: the answers become readable then
            FollowerHealth behind = awaitState(() -> FollowerHealth.check(reader), FollowerHealth.State.BEHIND, Duration.ofSeconds(10));
            assertThat(behind.ok()).isFalse();
            // the commit marker is one more offset on each partition the transaction wrote to
            assertThat(behind.lag()).isBetween((long) UNREAD, (long) UNREAD + partitions.size());
            assertThat(behind.json().path("state").asText()).isEqualTo("behind");

            reader.seekToEnd(partitions);
            assertThat(FollowerHealth.check(reader).state()).isEqualTo(FollowerHealth.State.FOLLOWING);
        }
    }

    @Test
    void aStoppedBrokerIsUnreachableAndAClosedFollowerIsDown() throws Exception {
        LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-kafka-health-"));
        AnswerFollower follower;
        try {
            broker.createTopics(new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1));
            follower = new AnswerFollower(KafkaClientFactory.plain(broker.bootstrapServers()), "answers", "dead-letters",
                    new Sessions(Duration.ofHours(1)));
            follower.start(Duration.ofSeconds(20));
            awaitState(follower::health, FollowerHealth.State.FOLLOWING, Duration.ofSeconds(15));
        } finally {
            broker.close();
        }
        long stopped = System.nanoTime();
        FollowerHealth gone = awaitState(follower::health, FollowerHealth.State.BROKER_UNREACHABLE, Duration.ofSeconds(20));
        assertThat(gone.ok()).isFalse();
        assertThat(gone.detail()).contains("did not answer");
        System.out.printf("broker_unreachable %d ms after the broker stopped%n", (System.nanoTime() - stopped) / 1_000_000);
        follower.close();
        assertThat(follower.health().state()).isEqualTo(FollowerHealth.State.DOWN);
    }

    @Test
    void aFollowerWhoseThreadEndedIsDownAndSaysWhy() throws InterruptedException {
        AnswerFollower follower = new AnswerFollower(KafkaClientFactory.plain(KAFKA.bootstrapServers()), "answers",
                "dead letters", new Sessions(Duration.ofHours(1)));
        try {
            long started = System.nanoTime();
            assertThatThrownBy(() -> follower.start(Duration.ofSeconds(30))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("stopped before following").hasMessageContaining("dead letters");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("start says why at once, not after its 30 s")
                    .isLessThan(Duration.ofSeconds(15));
            FollowerHealth down = follower.health();
            assertThat(down.state()).isEqualTo(FollowerHealth.State.DOWN);
            assertThat(down.detail()).contains("dead letters");
            assertThat(down.json().path("state").asText()).isEqualTo("down");
        } finally {
            follower.close();
        }
    }

    private static void send(KafkaProducer<String, String> producer, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            String dialogue = prefix + "-" + i;
            producer.send(new ProducerRecord<>("answers", dialogue, "{\"dialogue_id\":\"" + dialogue + "\"}"));
        }
        producer.flush();
    }

    private static FollowerHealth awaitState(Supplier<FollowerHealth> health, FollowerHealth.State wanted, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        FollowerHealth now = health.get();
        while (now.state() != wanted && System.nanoTime() < deadline) {
            Thread.sleep(100);
            now = health.get();
        }
        assertThat(now.state()).as(now.detail()).isEqualTo(wanted);
        return now;
    }
}

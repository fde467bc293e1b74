package io.flowsql.job;

import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.TopicSpec;
import org.apache.flink.connector.kafka.sink.internal.FlinkKafkaInternalProducer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * docs/FAULTS.md#kafka-committer-after-a-restore: what the Kafka sink's committer does with a restored checkpoint's
 * transactions, on a real broker. A restore hands the committer the checkpoint's committables (transactional id,
 * producer id, epoch) again; it resumes each with a new producer and commits it (the connector's
 * {@code KafkaCommitter}: {@code resumeTransaction(producerId, epoch)} then {@code commitTransaction()}). A transaction
 * the committer had already committed before the failure comes back fenced (the connector logs it at ERROR, "producer
 * is already fenced"), and its records are still there exactly once; one that was not committed yet is committed now.
 * The same exception and log line also stand for a real loss: a transaction the broker aborted because it stayed
 * open longer than {@code transaction.timeout.ms}. The connector cannot tell them apart, so the line is not lowered.
 */
class RecommitAfterRestoreTest {
    private static final String TOPIC = "recommit";

    private static LocalKafkaBroker broker;

    /** A broker that aborts timed-out transactions every 200 ms (Kafka's default: every 10 s). */
    @BeforeAll
    static void startBroker(@TempDir Path dir) {
        broker = LocalKafkaBroker.start(dir, Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "200"));
        broker.createTopics(new TopicSpec(TOPIC, 1));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aTransactionCommittedBeforeTheFailureIsFencedOnRecommitAndItsRecordsAreThereOnce() {
        long[] committed = prepare("flowsql-recommit-0", "committed before the kill", true, 60_000);
        long[] pending = prepare("flowsql-recommit-1", "pre-committed, not committed", false, 60_000);

        Throwable recommit = recommit("flowsql-recommit-0", committed);
        Throwable firstCommit = recommit("flowsql-recommit-1", pending);

        assertThat(recommit).as("the recommit of an already committed transaction").isInstanceOf(ProducerFencedException.class);
        assertThat(firstCommit).as("the commit, after the restore, of a transaction the failure left open").isNull();
        assertThat(committedValues()).as("each record once").containsExactlyInAnyOrder("committed before the kill",
                "pre-committed, not committed");
    }

    /** Why the connector's ERROR stays an ERROR: a recovery slower than the transaction time-out looks the same. */
    @Test
    void aTransactionTheBrokerAbortedAfterItsTimeOutIsFencedTooAndItsRecordsAreLost() {
        long[] expired = prepare("flowsql-recommit-2", "left open past its time-out", false, 1_000);
        // the broker aborts it after 1 s: its abort marker moves the read_committed end past it
        assertThat(committedValues()).doesNotContain("left open past its time-out");

        assertThat(recommit("flowsql-recommit-2", expired)).isInstanceOf(ProducerFencedException.class);
        assertThat(committedValues()).doesNotContain("left open past its time-out");
    }

    /**
     * What the sink's writer does up to a checkpoint (a transaction with one record, flushed), and, when
     * {@code commit}, what the committer did before the failure. Returns the committable's producer id and epoch.
     */
    private static long[] prepare(String transactionalId, String value, boolean commit, int timeoutMillis) {
        Properties properties = properties();
        properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString(timeoutMillis));
        FlinkKafkaInternalProducer<String, String> writer = new FlinkKafkaInternalProducer<>(properties, transactionalId);
        writer.initTransactions();
        writer.beginTransaction();
        writer.send(new ProducerRecord<>(TOPIC, value, value));
        writer.flush();
        long[] committable = {writer.getProducerId(), writer.getEpoch()};
        if (commit) {
            writer.commitTransaction();
        }
        writer.close(Duration.ZERO); // the failure: the writer's producer is gone, its open transaction left as is
        return committable;
    }

    /** The committer after a restore: a new producer resumes the committable's transaction and commits it. */
    private static Throwable recommit(String transactionalId, long[] committable) {
        try (FlinkKafkaInternalProducer<String, String> committer = new FlinkKafkaInternalProducer<>(properties(), transactionalId)) {
            committer.resumeTransaction(committable[0], (short) committable[1]);
            return catchThrowable(committer::commitTransaction);
        }
    }

    private static Properties properties() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    /**
     * The topic's committed records, once no transaction on it is open (the read_committed end offset, which stops at
     * the first open transaction, has reached the log's end): waits for the broker to abort a timed-out one.
     */
    private static List<String> committedValues() {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<String, String> committed = consumer("read_committed");
             KafkaConsumer<String, String> all = consumer("read_uncommitted")) {
            committed.assign(List.of(partition));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            long end = committed.endOffsets(List.of(partition)).get(partition);
            while (end < all.endOffsets(List.of(partition)).get(partition)) {
                assertThat(System.nanoTime()).as("a transaction is still open after 20 s").isLessThan(deadline);
                committed.poll(Duration.ofMillis(100));
                end = committed.endOffsets(List.of(partition)).get(partition);
            }
            committed.seekToBeginning(List.of(partition));
            List<String> values = new ArrayList<>();
            while (committed.position(partition) < end) {
                assertThat(System.nanoTime()).as("reading the committed records").isLessThan(deadline);
                for (ConsumerRecord<String, String> r : committed.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            return values;
        }
    }

    private static KafkaConsumer<String, String> consumer(String isolation) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()));
    }
}

package io.flowsql.benchmarks.soak;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak's clients: an idempotent producer of questions (acks=all, so a broker kill neither loses nor doubles one),
 * and a read_committed reader of answers and dead letters on a thread of its own that books every answer in the ledger.
 */
final class SoakTraffic implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final SoakLedger ledger;
    private final AtomicInteger deadLetters = new AtomicInteger();
    private final KafkaClientFactory kafka;
    private final Thread reader;
    private volatile boolean running = true;

    SoakTraffic(String bootstrapServers, SoakLedger ledger) {
        this.ledger = ledger;
        this.kafka = KafkaClientFactory.plain(bootstrapServers);
        producer = kafka.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"),
                new ByteArraySerializer(), new ByteArraySerializer());
        reader = new Thread(this::read, "soak-answers-reader");
        reader.setDaemon(true);
        reader.start();
    }

    void send(QuestionEvent q, String phase) {
        ledger.sent(q.requestId, phase);
        producer.send(new ProducerRecord<>("questions", q.dialogueId.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(q)));
    }

    int deadLetters() {
        return deadLetters.get();
    }

    /** Waits until {@code expected} questions have an answer or {@code withinNanos} pass, then 5 s more for duplicates. */
    void awaitAnswers(int expected, long withinNanos) throws InterruptedException {
        producer.flush();
        long deadline = System.nanoTime() + withinNanos;
        while (ledger.answered() + deadLetters.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        Thread.sleep(5000);
    }

    private void read() {
        Map<String, String> reader = Map.of(ConsumerConfig.GROUP_ID_CONFIG, "soak-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(reader, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("answers", "dead-letters"));
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.topic().equals("dead-letters")) {
                        deadLetters.incrementAndGet();
                    } else {
                        AnswerEvent a = EventJson.parseAnswer(r.value());
                        ledger.answered(a.requestId, a.errorKind == null ? a.status : a.status + "/" + a.errorKind);
                    }
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        reader.join(10_000);
        producer.close(Duration.ofSeconds(10));
    }
}

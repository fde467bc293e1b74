package io.flowsql.benchmarks.learning;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.events.TraceEntry;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.producer.ProducerConfig;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.producer.ProducerRecord;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.common.TopicPartition;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A client of the running job: sends questions and feedback, reads the committed answers (read_committed). */
final class Session implements AutoCloseable {
    private final String questions;
    private final String feedback;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, AnswerEvent> answers = new HashMap<>();
    private int asked;

    Session(String bootstrapServers, String questions, String answers, String feedback) {
        this.questions = questions;
        this.feedback = feedback;
        KafkaClientFactory kafka = KafkaClientFactory.plain(bootstrapServers);
        producer = kafka.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, "0"), new ByteArraySerializer(), new ByteArraySerializer());
        consumer = kafka.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(answers).stream()
                .map(x -> new TopicPartition(x.topic(), x.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
    }

    /** Sends a question (its own dialogue, opensearch) and returns its request id. */
    String ask(String dbId, String question) {
        String id = "bench-" + asked++;
        QuestionEvent q = new QuestionEvent(id, "dialogue-" + id, dbId, question);
        q.options = new QuestionOptions();
        q.options.strategy = "opensearch";
        producer.send(new ProducerRecord<>(questions, q.dialogueId.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(q)));
        producer.flush();
        return id;
    }

    void send(FeedbackEvent f) {
        producer.send(new ProducerRecord<>(feedback, f.keyBytes(), EventJson.toBytes(f)));
        producer.flush();
    }

    /** Reads what arrived within {@code wait}; returns the new answers. */
    List<AnswerEvent> poll(Duration wait) {
        List<AnswerEvent> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(wait)) {
            AnswerEvent a = EventJson.parseAnswer(r.value());
            answers.put(a.requestId, a);
            out.add(a);
        }
        return out;
    }

    /** Waits until every one of the ids is answered (or the limit passes); returns them in order. */
    List<AnswerEvent> await(List<String> ids, Duration limit) {
        long deadline = System.currentTimeMillis() + limit.toMillis();
        while (!answers.keySet().containsAll(ids) && System.currentTimeMillis() < deadline) {
            poll(Duration.ofMillis(100));
        }
        return ids.stream().map(answers::get).filter(Objects::nonNull).toList();
    }

    /** The feedback ids a stage of the answer used, in the order the stage ranked them; {@code stage} null = any stage. */
    static List<String> used(AnswerEvent a) {
        return a.trace.stream().map((TraceEntry t) -> t.feedbackUsed).filter(Objects::nonNull).flatMap(List::stream).toList();
    }

    @Override
    public void close() {
        producer.close();
        consumer.close();
    }
}

package io.flowsql.benchmarks.throughput;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
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
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Sends questions to the running job — all at once, or paced at a fixed rate — and reads the answers back as a
 * read_committed client would; a question's latency runs from just before its send to the moment its answer is read.
 */
final class StreamingRun {
    private final String bootstrapServers;
    private final String questionsTopic;
    private final String answersTopic;
    private final long simulatedLatencyMillis;

    /** {@code simulatedLatencyMillis}: the simulated LLM's latency per call, for each question's {@link LlmFloor}. */
    StreamingRun(String bootstrapServers, String questionsTopic, String answersTopic, long simulatedLatencyMillis) {
        this.bootstrapServers = bootstrapServers;
        this.questionsTopic = questionsTopic;
        this.answersTopic = answersTopic;
        this.simulatedLatencyMillis = simulatedLatencyMillis;
    }

    /** Every question sent at once. */
    RunFigures run(String name, List<QuestionEvent> questions, LongSupplier llmCalls, Duration limit) {
        return run(name, questions, 0, llmCalls, limit);
    }

    /** Questions sent at {@code perSecond} (0 = all at once). */
    RunFigures run(String name, List<QuestionEvent> questions, double perSecond, LongSupplier llmCalls, Duration limit) {
        return run(name, questions, perSecond, 0, llmCalls, limit, at -> { });
    }

    /**
     * A closed loop: {@code outstanding} questions sent at once, then one more for every answer read, so the job always
     * has that many questions to work on (the load a pool of clients waiting for their answers would put on it).
     * {@code onPoll} is called with the ms since the run's start before each poll for answers.
     */
    RunFigures closedLoop(String name, List<QuestionEvent> questions, int outstanding, LongSupplier llmCalls, Duration limit,
                          LongConsumer onPoll) {
        return run(name, questions, 0, outstanding, llmCalls, limit, onPoll);
    }

    private RunFigures run(String name, List<QuestionEvent> questions, double perSecond, int outstanding,
                           LongSupplier llmCalls, Duration limit, LongConsumer onPoll) {
        Map<String, Long> sentAt = new HashMap<>();
        List<Long> latencies = new ArrayList<>();
        List<Long> floors = new ArrayList<>();
        List<Long> answeredAt = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(); KafkaProducer<byte[], byte[]> producer = producer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(answersTopic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            long callsBefore = llmCalls.getAsLong();
            long start = System.currentTimeMillis();
            long deadline = start + limit.toMillis();
            long last = start;
            int sent = 0;
            while (latencies.size() < questions.size() && System.currentTimeMillis() < deadline) {
                long now = System.currentTimeMillis();
                while (sent < questions.size() && (perSecond <= 0 || start + (long) (sent * 1000 / perSecond) <= now)
                        && (outstanding <= 0 || sent - latencies.size() < outstanding)) {
                    QuestionEvent q = questions.get(sent++);
                    sentAt.put(q.requestId, System.currentTimeMillis());
                    producer.send(new ProducerRecord<>(questionsTopic, q.dialogueId.getBytes(StandardCharsets.UTF_8),
                            EventJson.toBytes(q)));
                }
                producer.flush();
                onPoll.accept(System.currentTimeMillis() - start);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(perSecond > 0 ? 5 : 50))) {
                    AnswerEvent answer = EventJson.parseAnswer(r.value());
                    Long at = sentAt.remove(answer.requestId);
                    if (at != null) {
                        last = System.currentTimeMillis();
                        latencies.add(last - at);
                        floors.add(LlmFloor.millis(answer.trace, simulatedLatencyMillis));
                        answeredAt.add(last - start);
                    }
                }
            }
            if (latencies.size() < questions.size()) {
                throw new IllegalStateException(name + ": only " + latencies.size() + " of " + questions.size()
                        + " answers within " + limit);
            }
            return new RunFigures(name, questions.size(), last - start, llmCalls.getAsLong() - callsBefore, latencies,
                    floors, answeredAt);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return KafkaClientFactory.plain(bootstrapServers).producer(Map.of(
                ProducerConfig.CLIENT_ID_CONFIG, CpuAccount.CLIENT_ID + "-producer",
                ProducerConfig.LINGER_MS_CONFIG, "0"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return KafkaClientFactory.plain(bootstrapServers).consumer(Map.of(
                ConsumerConfig.CLIENT_ID_CONFIG, CpuAccount.CLIENT_ID + "-consumer",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}

package io.flowsql.benchmarks.eval.run;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.score.RequestIds;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import me.tongfei.progressbar.ProgressBar;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

/**
 * Pushes a benchmark's questions to a running job's questions topic (dialogue turns in order, keyed by
 * dialogue id) and appends the committed answers to a JSONL file until every question is answered or
 * the deadline passes; questions already answered in that file are not sent again.
 */
public final class KafkaBenchmarkRunner {
    private final String bootstrapServers;
    private final String questionsTopic;
    private final String answersTopic;
    private final String strategy;

    public KafkaBenchmarkRunner(String bootstrapServers, String questionsTopic, String answersTopic, String strategy) {
        this.bootstrapServers = bootstrapServers;
        this.questionsTopic = questionsTopic;
        this.answersTopic = answersTopic;
        this.strategy = strategy;
    }

    /** @return how many questions are still unanswered when it stops (0 on success) */
    public int run(Benchmark bench, Path answersPath, Duration deadline) {
        Set<String> done = AnswersFile.answeredRequestIds(answersPath);
        List<BenchmarkItem> todo = bench.runnableItems().stream()
                .filter(i -> !done.contains(RequestIds.requestId(bench.name(), i.id()))).toList();
        Set<String> pending = new HashSet<>();
        todo.forEach(i -> pending.add(RequestIds.requestId(bench.name(), i.id())));
        int total = bench.runnableItems().size();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps());
             AnswersFile out = AnswersFile.append(answersPath);
             ProgressBar bar = new ProgressBar("run " + bench.name(), total)) {
            bar.stepTo(total - todo.size());
            consumer.subscribe(List.of(answersTopic));
            consumer.poll(Duration.ofMillis(200));
            send(bench, todo);
            Instant end = Instant.now().plus(deadline);
            while (!pending.isEmpty() && Instant.now().isBefore(end)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    AnswerEvent a = EventJson.parseAnswer(r.value());
                    if (pending.remove(a.requestId)) {
                        out.write(a);
                        bar.step();
                    }
                }
            }
        }
        return pending.size();
    }

    private void send(Benchmark bench, List<BenchmarkItem> todo) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerProps())) {
            for (BenchmarkItem item : todo) {
                String dialogue = RequestIds.dialogueId(bench.name(), item.dialogueId() != null ? item.dialogueId() : item.id());
                QuestionEvent q = new QuestionEvent(RequestIds.requestId(bench.name(), item.id()), dialogue, item.dbId(), item.question());
                q.evidence = item.evidence().isEmpty() ? null : item.evidence();
                q.sentAt = Instant.now().toString();
                if (strategy != null) {
                    q.options = new QuestionOptions();
                    q.options.strategy = strategy;
                }
                producer.send(new ProducerRecord<>(questionsTopic, dialogue, EventJson.toBytes(q)));
            }
            producer.flush();
        }
    }

    private Properties producerProps() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return p;
    }

    private Properties consumerProps() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "flowsql-eval-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }
}

package io.flowsql.benchmarks.eval.run;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.score.RequestIds;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.config.kafka.KafkaClients;
import me.tongfei.progressbar.ProgressBar;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pushes a benchmark's questions to a running job's questions topic (dialogue turns in order, keyed by
 * dialogue id) and appends the committed answers to a JSONL file until every question is answered or
 * the deadline passes; questions already answered in that file are not sent again. Every request and
 * dialogue id carries the run id, so only this run's answers are collected (see {@link EvalRunId}).
 */
public final class KafkaBenchmarkRunner {
    private final String bootstrapServers;
    private final String questionsTopic;
    private final String answersTopic;
    private final String strategy;
    private final String runId;
    private final GoldHistory goldHistory;

    /** The system's own history: each turn is answered with the dialogue history the job kept. */
    public KafkaBenchmarkRunner(String bootstrapServers, String questionsTopic, String answersTopic, String strategy,
                                String runId) {
        this(bootstrapServers, questionsTopic, answersTopic, strategy, runId, null);
    }

    /** @param goldHistory the gold protocol (each question event carries its gold history), or null for the system's own */
    public KafkaBenchmarkRunner(String bootstrapServers, String questionsTopic, String answersTopic, String strategy,
                                String runId, GoldHistory goldHistory) {
        this.bootstrapServers = bootstrapServers;
        this.questionsTopic = questionsTopic;
        this.answersTopic = answersTopic;
        this.strategy = strategy;
        this.runId = RequestIds.checkRunId(runId);
        this.goldHistory = goldHistory;
    }

    public String runId() {
        return runId;
    }

    private String requestId(Benchmark bench, BenchmarkItem item) {
        return RequestIds.requestId(runId, bench.name(), item.id());
    }

    /** What one run did: questions sent, answers found already committed on the topic, questions left unanswered. */
    public record RunResult(int sent, int recoveredFromTopic, int unanswered) {}

    /**
     * Answers already in the file are skipped; answers the job committed to the topic while this runner was not
     * reading (an interrupted run) are recovered into the file before anything is sent, so the LLM is not asked
     * again for them; only the rest is sent.
     */
    public RunResult run(Benchmark bench, Path answersPath, Duration deadline) {
        Set<String> done = AnswersFile.answeredRequestIds(answersPath);
        List<BenchmarkItem> todo = bench.runnableItems().stream()
                .filter(i -> !done.contains(requestId(bench, i))).toList();
        Set<String> pending = new HashSet<>();
        todo.forEach(i -> pending.add(requestId(bench, i)));
        int total = bench.runnableItems().size();
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(bootstrapServers, "flowsql-eval", false);
             AnswersFile out = AnswersFile.append(answersPath);
             ProgressBar bar = new ProgressBar("run " + bench.name(), total)) {
            bar.stepTo(total - todo.size());
            consumer.subscribe(List.of(answersTopic));
            int before = pending.size();
            readCommittedSoFar(consumer, pending, out, bar);
            int recovered = before - pending.size();
            List<BenchmarkItem> toSend = todo.stream()
                    .filter(i -> pending.contains(requestId(bench, i))).toList();
            send(bench, toSend);
            Instant end = Instant.now().plus(deadline);
            while (!pending.isEmpty() && Instant.now().isBefore(end)) {
                collect(consumer.poll(Duration.ofMillis(500)), pending, out, bar);
            }
            return new RunResult(toSend.size(), recovered, pending.size());
        }
    }

    /** Reads the answers topic up to its current end, keeping answers of pending questions. */
    private static void readCommittedSoFar(KafkaConsumer<byte[], byte[]> consumer, Set<String> pending,
                                           AnswersFile out, ProgressBar bar) {
        Instant giveUp = Instant.now().plus(Duration.ofSeconds(30));
        while (consumer.assignment().isEmpty() && Instant.now().isBefore(giveUp)) {
            collect(consumer.poll(Duration.ofMillis(200)), pending, out, bar);
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
        while (Instant.now().isBefore(giveUp)
                && ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            collect(consumer.poll(Duration.ofMillis(200)), pending, out, bar);
        }
    }

    private static void collect(Iterable<ConsumerRecord<byte[], byte[]>> records, Set<String> pending,
                                AnswersFile out, ProgressBar bar) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            AnswerEvent a;
            try {
                a = EventJson.parseAnswer(r.value());
            } catch (java.io.UncheckedIOException e) {
                // another writer's record on the answers topic: skip it, as the job's feedback reader does
                System.err.printf("skipping an unreadable record at %s-%d@%d: %s%n", r.topic(), r.partition(), r.offset(), e.getMessage());
                continue;
            }
            if (pending.remove(a.requestId)) {
                out.write(a);
                bar.step();
            }
        }
    }

    private void send(Benchmark bench, List<BenchmarkItem> todo) {
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(bootstrapServers)) {
            for (BenchmarkItem item : todo) {
                String dialogue = RequestIds.dialogueId(runId, bench.name(), item.dialogueId() != null ? item.dialogueId() : item.id());
                QuestionEvent q = new QuestionEvent(requestId(bench, item), dialogue, item.dbId(), item.question());
                q.evidence = item.evidence().isEmpty() ? null : item.evidence();
                q.sentAt = Instant.now().toString();
                if (goldHistory != null && item.dialogueId() != null) {
                    q.history = goldHistory.before(item);
                }
                if (strategy != null) {
                    q.options = new QuestionOptions();
                    q.options.strategy = strategy;
                }
                producer.send(new ProducerRecord<>(questionsTopic, dialogue.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(q)));
            }
            producer.flush();
        }
    }
}

package io.flowsql.job.kafka;

import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.flink.DialogueKeys;
import io.flowsql.flink.EarlierAnswers;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The last {@code perPartition} committed answers of each answers partition (read_committed, up to the committed end
 * as it is when read), for the request-id check of a job started without state ({@link EarlierAnswers}). A job stopped
 * between its answers' commit and its question offsets' commit left its last answers at the end of the answers topic,
 * so they are among these. Cost at each stateless start: reading up to perPartition records per partition once per
 * request-id subtask (a few KiB each), and one string per answer of the subtask's dialogues kept while the job runs.
 * A record that is not an answer is skipped; reading stops at {@code within} (logged), so a slow broker delays the
 * start at most that long.
 */
public final class RecentAnswers implements EarlierAnswers {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RecentAnswers.class);

    private final KafkaClientFactory clients;
    private final String topic;
    private final int perPartition;
    private final Duration within;

    public RecentAnswers(KafkaClientFactory clients, String topic, int perPartition, Duration within) {
        this.clients = clients;
        this.topic = topic;
        this.perPartition = perPartition;
        this.within = within;
    }

    @Override
    public Set<String> load(Predicate<String> owned) {
        Set<String> answered = new HashSet<>();
        if (perPartition <= 0) {
            return answered;
        }
        long started = System.nanoTime();
        long deadline = started + within.toNanos();
        int read = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer(Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, within).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions, within));
            Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(partitions, within);
            for (TopicPartition p : partitions) {
                consumer.seek(p, Math.max(beginnings.getOrDefault(p, 0L), ends.getOrDefault(p, 0L) - perPartition));
            }
            ends.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            while (!ends.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read++;
                    remember(r.value(), owned, answered);
                }
                ends.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            }
            if (!ends.isEmpty()) {
                LOG.warn("Read {} earlier answers of {} in {}, not all of the last {} per partition: questions answered "
                        + "before this start and read again may be answered again", read, topic, within, perPartition);
            }
        }
        LOG.info("Request-id check: {} of {} earlier answers on {} are this subtask's ({} ms)", answered.size(), read, topic,
                (System.nanoTime() - started) / 1_000_000);
        return answered;
    }

    private static void remember(byte[] value, Predicate<String> owned, Set<String> answered) {
        AnswerEvent answer;
        try {
            answer = EventJson.parseAnswer(value);
        } catch (RuntimeException notAnAnswer) {
            return;
        }
        if (answer == null || answer.requestId == null) {
            return;
        }
        String key = new DialogueKeys.OfAnswer().getKey(answer);
        if (owned.test(key)) {
            answered.add(EarlierAnswers.key(key, answer.requestId));
        }
    }
}

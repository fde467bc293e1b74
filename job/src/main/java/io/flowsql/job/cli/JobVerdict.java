package io.flowsql.job.cli;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The job's verdict on one piece of feedback, as the CLI can see it: refused when a dead letter names its feedback id
 * (with the dead letter's reason); accepted when the job's feedback group has committed past the record (the job read
 * it and checkpointed) and, a few seconds on, still no dead letter names it; unknown when the wait ran out first.
 */
record JobVerdict(String outcome, String reason) {
    /** After the group committed past the record: room for the SQL check of a pair or correction to end in a dead letter. */
    private static final Duration GRACE = Duration.ofSeconds(5);

    String describe() {
        return switch (outcome) {
            case "refused" -> "refused by the job: " + reason;
            case "accepted" -> "accepted by the job (it read the feedback and no dead letter names it)";
            default -> "no verdict from the job yet: " + reason;
        };
    }

    int exitCode() {
        return switch (outcome) {
            case "refused" -> 5;
            case "accepted" -> 0;
            default -> 6;
        };
    }

    static JobVerdict await(KafkaClientFactory kafka, String bootstrapServers, String deadLettersTopic, Map<TopicPartition, Long> deadLettersFrom,
                            String feedbackGroup, RecordMetadata sent, String feedbackId, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        long acceptAt = Long.MAX_VALUE;
        TopicPartition record = new TopicPartition(sent.topic(), sent.partition());
        while (System.nanoTime() < deadline) {
            Optional<DeadLetterEvent> refused = deadLetter(bootstrapServers, deadLettersTopic, deadLettersFrom, sent.topic(), feedbackId);
            if (refused.isPresent()) {
                return new JobVerdict("refused", refused.get().reason);
            }
            if (acceptAt == Long.MAX_VALUE && committedPast(kafka, feedbackGroup, record, sent.offset())) {
                acceptAt = System.nanoTime() + GRACE.toNanos();
            }
            if (System.nanoTime() >= acceptAt) {
                return new JobVerdict("accepted", null);
            }
            Thread.sleep(500);
        }
        return new JobVerdict("unknown", acceptAt == Long.MAX_VALUE
                ? "the job has not read it within " + wait.toSeconds() + " s (is the job running, with kafka.topic.feedback set?)"
                : "read by the job, still being checked after " + wait.toSeconds() + " s");
    }

    private static Optional<DeadLetterEvent> deadLetter(String bootstrapServers, String topic, Map<TopicPartition, Long> from,
                                                        String feedbackTopic, String feedbackId) {
        DeadLetterEvent[] found = {null};
        TopicScan.from(bootstrapServers, topic, from, Duration.ofSeconds(10), r -> {
            try {
                DeadLetterEvent d = EventJson.mapper().readValue(r.value(), DeadLetterEvent.class);
                if (feedbackTopic.equals(d.topic) && feedbackId.equals(d.key)) {
                    found[0] = d;
                }
            } catch (IOException | RuntimeException e) {
                // not a dead letter this CLI can read: not about this feedback
            }
        });
        return Optional.ofNullable(found[0]);
    }

    /** True when {@code group} has committed an offset past {@code offset} on the record's partition. */
    private static boolean committedPast(KafkaClientFactory kafka, String group, TopicPartition partition, long offset) {
        try (KafkaConsumer<byte[], byte[]> consumer = CaughtUpCommand.groupReader(kafka, group)) {
            OffsetAndMetadata committed = consumer.committed(Set.of(partition)).get(partition);
            return committed != null && committed.offset() > offset;
        }
    }
}

package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.events.QuestionEvent;
import io.flowsql.engine.StageRegistry;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One bad record never stops the job: on a real broker and MiniCluster, records of 0.4–0.9 MB that expand past
 * 1 MiB once escaped, two-object records, trailing garbage, a byte-order mark, null and wrong keys and unknown stage
 * names, interleaved with valid questions, before and after the job is killed and started again with the same
 * configuration. Every valid question is answered once; every bad record is dead-lettered once, with its excerpt,
 * size, hash and reason.
 */
class BadRecordsITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    /** A bad record as sent, and the reason prefix its dead letter must carry. */
    private record Bad(byte[] key, byte[] value, String reasonPrefix) {}

    @Test
    void everyValidQuestionIsAnsweredAndEveryBadRecordDeadLetteredOnceAcrossARestart() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> valid = SpiderQuestions.of(sharedData, "concert_singer", 6);
        assertThat(valid).as("Spider dev questions under flowsql.shared.data").hasSize(6);
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.LLM_MODEL.key(), "test-model",
                    JobOptions.STRATEGY.key(), "opensearch"));
            Map<String, Bad> bad = new LinkedHashMap<>();

            try (JobCluster.RunningJob first = JobCluster.start("bad-records-1", config)) {
                List<Bad> before = badRecords("a", valid.get(0));
                sendInterleaved(topics, valid.subList(0, 3), before);
                before.forEach(b -> bad.put(sha256(b.value()), b));
                awaitCommitted(topics, 3, before.size());
                awaitOffsetsCommitted(config);
            }

            // the same command again: the poison records of the first run are behind the committed offsets
            try (JobCluster.RunningJob second = JobCluster.start("bad-records-2", config)) {
                List<Bad> after = badRecords("b", valid.get(3));
                sendInterleaved(topics, valid.subList(3, 6), after);
                after.forEach(b -> bad.put(sha256(b.value()), b));

                List<ConsumerRecord<byte[], byte[]>> answers =
                        topics.committed(JobTopics.ANSWERS, valid.size(), Duration.ofSeconds(120), Duration.ofSeconds(3));
                List<ConsumerRecord<byte[], byte[]>> deadLetters =
                        topics.committed(JobTopics.DEAD_LETTERS, bad.size(), Duration.ofSeconds(30), Duration.ofSeconds(1));
                assertOneAnswerEach(valid, answers);
                assertOneDeadLetterEach(bad, deadLetters);
            }
        }
    }

    /** The bad records of one run; {@code tag} keeps their bytes distinct between runs, {@code model} is a valid question to spoil. */
    private static List<Bad> badRecords(String tag, QuestionEvent model) {
        String json = EventJson.toJson(model);
        byte[] key = model.dialogueId.getBytes(StandardCharsets.UTF_8);
        byte[] controls = new byte[400_000 + tag.length()];
        Arrays.fill(controls, (byte) 1);
        System.arraycopy(tag.getBytes(StandardCharsets.UTF_8), 0, controls, 0, tag.length());
        byte[] quotes = new byte[900_000];
        Arrays.fill(quotes, (byte) '"');
        quotes[0] = (byte) tag.charAt(0);
        String bigQuestion = json.replace(model.question, tag + " " + "\\u0001".repeat(150_000));
        return List.of(
                new Bad(key, controls, "too_large: record of " + controls.length + " bytes"),
                new Bad(key, quotes, "too_large: record of 900000 bytes"),
                new Bad(key, bigQuestion.getBytes(StandardCharsets.UTF_8), "too_large: "),
                new Bad(key, (json + json.replace(model.requestId, model.requestId + "-" + tag + "-second")).getBytes(StandardCharsets.UTF_8),
                        "not_json: more than one JSON value"),
                new Bad(key, (json + " " + tag + " trailing garbage").getBytes(StandardCharsets.UTF_8), "not_json: "),
                new Bad(key, ("\uFEFF" + json.replace(model.requestId, tag + "-bom")).getBytes(StandardCharsets.UTF_8),
                        "not_json: the record starts with a UTF-8 byte-order mark"),
                new Bad(null, json.replace(model.requestId, tag + "-no-key").getBytes(StandardCharsets.UTF_8),
                        "key_mismatch: the record has no key"),
                new Bad("someone-else".getBytes(StandardCharsets.UTF_8),
                        json.replace(model.requestId, tag + "-wrong-key").getBytes(StandardCharsets.UTF_8), "key_mismatch: "),
                new Bad(key, json.replace(model.requestId, tag + "-stage").replace("}",
                        ",\"options\":{\"disabled_stages\":[\"opensearch.algin\"]}}").getBytes(StandardCharsets.UTF_8),
                        "unknown_stage: options.disabled_stages names no stage or switch: 'opensearch.algin'; valid stages and switches: "
                                + String.join(", ", StageRegistry.names()) + ", "
                                + String.join(", ", io.flowsql.engine.StageSwitches.names())));
    }

    /** A valid question, then bad records, alternately, in one producer's order. */
    private static void sendInterleaved(JobTopics topics, List<QuestionEvent> valid, List<Bad> bad) {
        List<Map.Entry<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < Math.max(valid.size(), bad.size()); i++) {
            if (i < valid.size()) {
                QuestionEvent q = valid.get(i);
                records.add(new SimpleEntry<>(q.dialogueId.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(q)));
            }
            if (i < bad.size()) {
                records.add(new SimpleEntry<>(bad.get(i).key(), bad.get(i).value()));
            }
        }
        topics.sendRecords(records);
    }

    private static void awaitCommitted(JobTopics topics, int answers, int deadLetters) {
        assertThat(topics.committed(JobTopics.ANSWERS, answers, Duration.ofSeconds(120), Duration.ZERO))
                .as("the first run answers its questions").hasSizeGreaterThanOrEqualTo(answers);
        assertThat(topics.committed(JobTopics.DEAD_LETTERS, deadLetters, Duration.ofSeconds(30), Duration.ZERO))
                .as("the first run dead-letters its bad records").hasSizeGreaterThanOrEqualTo(deadLetters);
    }

    /** Waits until the job's consumer group committed every question offset (it commits at checkpoints). */
    private static void awaitOffsetsCommitted(JobConfig config) throws Exception {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            for (int partition = 0; partition < 2; partition++) {
                latest.put(new TopicPartition(JobTopics.QUESTIONS, partition), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> end = admin.listOffsets(latest).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
            while (System.nanoTime() < deadline) {
                committed = admin.listConsumerGroupOffsets(config.get(JobOptions.GROUP_ID))
                        .partitionsToOffsetAndMetadata().get();
                Map<TopicPartition, OffsetAndMetadata> now = committed;
                // a partition nothing was sent to has no committed offset, and needs none
                if (end.entrySet().stream().allMatch(e -> e.getValue() == 0
                        || (now.get(e.getKey()) != null && now.get(e.getKey()).offset() >= e.getValue()))) {
                    return;
                }
                Thread.sleep(200);
            }
            assertThat(committed).as("committed offsets reach the end of the questions topic " + end).isEmpty();
        }
    }

    private static void assertOneAnswerEach(List<QuestionEvent> valid, List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Long> perRequest = records.stream().map(r -> EventJson.parseAnswer(r.value()))
                .collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
        assertThat(perRequest.keySet()).as("every valid question, and only those, answered (a two-object record's "
                + "questions are not)").containsExactlyInAnyOrderElementsOf(valid.stream().map(q -> q.requestId).toList());
        assertThat(perRequest.values()).as("no duplicates across the restart").allMatch(n -> n == 1);
        List<AnswerEvent> answers = records.stream().map(r -> EventJson.parseAnswer(r.value())).toList();
        assertThat(answers).extracting(a -> a.status).doesNotContainNull();
    }

    private static void assertOneDeadLetterEach(Map<String, Bad> bad, List<ConsumerRecord<byte[], byte[]>> records)
            throws Exception {
        List<DeadLetterEvent> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertThat(r.serializedValueSize()).as("a dead letter is a few KiB at most").isLessThan(8 * 1024);
            assertThat(EventSchemas.deadLetterViolations(EventJson.mapper().readTree(r.value()))).isEmpty();
            letters.add(EventJson.parseDeadLetter(r.value()));
        }
        Map<String, List<DeadLetterEvent>> byHash = letters.stream().collect(Collectors.groupingBy(d -> d.rawSha256));
        assertThat(byHash.keySet()).containsExactlyInAnyOrderElementsOf(bad.keySet());
        byHash.forEach((hash, list) -> {
            Bad sent = bad.get(hash);
            assertThat(list).as("dead-lettered once: " + list.get(0).reason).hasSize(1);
            DeadLetterEvent d = list.get(0);
            assertThat(d.reason).startsWith(sent.reasonPrefix());
            assertThat(d.rawBytes).isEqualTo(sent.value().length);
            assertThat(d.raw).isNotEmpty();
            assertThat(new String(sent.value(), StandardCharsets.UTF_8)).startsWith(d.raw);
            assertThat(d.rawTruncated).isEqualTo(d.raw.length() < new String(sent.value(), StandardCharsets.UTF_8).length());
            assertThat(d.topic).isEqualTo(JobTopics.QUESTIONS);
        });
        assertThat(letters.stream().map(d -> d.partition + "@" + d.offset).toList()).doesNotHaveDuplicates();
    }

    private static String sha256(byte[] value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

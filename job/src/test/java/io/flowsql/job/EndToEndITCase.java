package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole job through real parts: a KRaft broker, a Flink MiniCluster, the simulated LLM over HTTP and
 * the Spider SQLite databases. Valid questions get exactly one committed answer each; each invalid record
 * gets exactly one dead letter with its reason and where it was read.
 */
class EndToEndITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    @Test
    void everyValidQuestionGetsOneAnswerAndEveryInvalidRecordOneDeadLetter() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        assertThat(sharedData.resolve("spider/database/concert_singer/concert_singer.sqlite"))
                .as("Spider data is needed beside the project (flowsql.shared.data)").isRegularFile();
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.LLM_MODEL.key(), "test-model"));
            try (JobCluster.RunningJob job = JobCluster.start("end-to-end", config)) {
                List<QuestionEvent> valid = SpiderQuestions.of(sharedData, "concert_singer", 6);
                Map<String, String> invalid = invalidRecords();
                topics.sendQuestions(valid);
                Map<String, String> invalidByKey = new LinkedHashMap<>();
                invalid.keySet().forEach(raw -> invalidByKey.put("bad-" + invalidByKey.size(), raw));
                topics.sendRaw(invalidByKey);

                List<ConsumerRecord<byte[], byte[]>> answers =
                        topics.committed(JobTopics.ANSWERS, valid.size(), Duration.ofSeconds(60), Duration.ofSeconds(3));
                List<ConsumerRecord<byte[], byte[]>> deadLetters =
                        topics.committed(JobTopics.DEAD_LETTERS, invalid.size(), Duration.ofSeconds(20), Duration.ofMillis(500));
                assertAnswers(valid, answers);
                assertDeadLetters(invalid, deadLetters);
            }
        }
    }

    private static void assertAnswers(List<QuestionEvent> valid, List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        List<AnswerEvent> answers = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode tree = EventJson.mapper().readTree(r.value());
            assertThat(EventSchemas.answerViolations(tree)).as("answer schema").isEmpty();
            AnswerEvent a = EventJson.parseAnswer(r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).as("answers are keyed by dialogue").isEqualTo(a.dialogueId);
            answers.add(a);
        }
        Map<String, Long> perRequest = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
        assertThat(perRequest.keySet()).containsExactlyInAnyOrderElementsOf(valid.stream().map(q -> q.requestId).toList());
        assertThat(perRequest.values()).as("no duplicates").allMatch(n -> n == 1);
        Map<String, QuestionEvent> byId = valid.stream().collect(Collectors.toMap(q -> q.requestId, Function.identity()));
        for (AnswerEvent a : answers) {
            assertThat(a.question).isEqualTo(byId.get(a.requestId).question);
            assertThat(a.dbId).isEqualTo("concert_singer");
            assertThat(a.simulated).as("the oracle LLM answered, and the answer says so").isTrue();
            assertThat(a.trace).isNotEmpty();
        }
        List<AnswerEvent> answered = answers.stream().filter(a -> "answered".equals(a.status)).toList();
        assertThat(answered).as("oracle-mode answers with SQL and rows: " + answers.stream().map(a -> a.status + " " + a.error).toList())
                .hasSizeGreaterThanOrEqualTo(valid.size() / 2);
        assertThat(answered).allMatch(a -> a.sql != null && a.result != null && !a.result.columns.isEmpty());
    }

    private static void assertDeadLetters(Map<String, String> invalid, List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        assertThat(records).hasSize(invalid.size());
        Map<String, DeadLetterEvent> byRaw = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertThat(EventSchemas.deadLetterViolations(EventJson.mapper().readTree(r.value()))).isEmpty();
            DeadLetterEvent d = EventJson.parseDeadLetter(r.value());
            byRaw.put(d.raw, d);
        }
        assertThat(byRaw.keySet()).containsExactlyInAnyOrderElementsOf(invalid.keySet());
        List<String> origins = new ArrayList<>();
        invalid.forEach((raw, expectedPrefix) -> {
            DeadLetterEvent d = byRaw.get(raw);
            assertThat(d.reason).as(raw).startsWith(expectedPrefix);
            assertThat(d.topic).isEqualTo(JobTopics.QUESTIONS);
            origins.add(d.partition + "@" + d.offset);
        });
        assertThat(origins).as("each dead letter names its own record").doesNotHaveDuplicates();
    }

    /** Raw invalid values → the reason prefix their dead letter must carry. */
    private static Map<String, String> invalidRecords() {
        Map<String, String> invalid = new LinkedHashMap<>();
        invalid.put("this is not json {", "not_json: ");
        invalid.put("{\"request_id\":\"bad-1\",\"dialogue_id\":\"dx\",\"db_id\":\"concert_singer\"}", "schema: ");
        // keyed "bad-2" when sent: the key matches its dialogue_id, so the database is what is wrong with it
        invalid.put("{\"request_id\":\"bad-2\",\"dialogue_id\":\"bad-2\",\"db_id\":\"no_such_db\",\"question\":\"How many?\"}",
                "unknown_database: ");
        invalid.put("{\"request_id\":42,\"dialogue_id\":\"dx\",\"db_id\":\"concert_singer\",\"question\":[\"How many?\"]}",
                "schema: ");
        return invalid;
    }
}

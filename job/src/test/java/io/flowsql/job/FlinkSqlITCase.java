package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.sql.FlowSqlScript;
import io.flowsql.job.sql.SqlScript;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
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
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FlowSQL as Flink SQL, through real parts: the bundled SQL script run by a {@link StreamTableEnvironment} on a
 * MiniCluster reads the questions topic of a real KRaft broker as raw records, answers each with FLOWSQL_ANSWER (the
 * simulated LLM over HTTP, the Spider SQLite databases) and writes exactly one answer or one dead letter per record,
 * exactly once; and TEXT_TO_SQL answers questions given as columns of a query.
 */
class FlinkSqlITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    private static Path sharedData() {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        assertThat(sharedData.resolve("spider/database/concert_singer/concert_singer.sqlite"))
                .as("Spider data is needed beside the project (flowsql.shared.data)").isRegularFile();
        return sharedData;
    }

    @Test
    void theScriptAnswersEveryQuestionRecordOnceAndDeadLettersEveryBadOne() throws Exception {
        Path sharedData = sharedData();
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers(), "sql", 2);
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.LLM_MODEL.key(), "test-model",
                    JobOptions.STRATEGY.key(), "opensearch"));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            FlowSqlJob.configure(env, config);
            TableResult insert = FlowSqlScript.run(StreamTableEnvironment.create(env), FlowSqlScript.bundledFor(config));
            try {
                List<QuestionEvent> valid = SpiderQuestions.of(sharedData, "concert_singer", 6);
                topics.sendQuestions(valid);
                Map<String, String> invalid = new LinkedHashMap<>();
                invalid.put("bad-0", "this is not json {");
                invalid.put("bad-1", "{\"request_id\":\"bad-1\",\"dialogue_id\":\"bad-1\",\"db_id\":\"no_such_db\",\"question\":\"How many?\"}");
                invalid.put("bad-2", "{\"request_id\":\"bad-2\",\"dialogue_id\":\"other\",\"db_id\":\"concert_singer\",\"question\":\"How many?\"}");
                topics.sendRaw(invalid);

                List<ConsumerRecord<byte[], byte[]>> answers = topics.committed(JobTopics.ANSWERS + "-sql", valid.size(),
                        Duration.ofSeconds(90), Duration.ofSeconds(3));
                List<ConsumerRecord<byte[], byte[]>> deadLetters = topics.committed(JobTopics.DEAD_LETTERS + "-sql",
                        invalid.size(), Duration.ofSeconds(30), Duration.ofSeconds(1));

                List<AnswerEvent> parsed = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : answers) {
                    JsonNode tree = EventJson.mapper().readTree(r.value());
                    assertThat(EventSchemas.answerViolations(tree)).as("answer schema").isEmpty();
                    AnswerEvent a = EventJson.parseAnswer(r.value());
                    assertThat(new String(r.key(), StandardCharsets.UTF_8)).as("keyed by dialogue").isEqualTo(a.dialogueId);
                    parsed.add(a);
                }
                Map<String, Long> perRequest = parsed.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                assertThat(perRequest.keySet()).containsExactlyInAnyOrderElementsOf(valid.stream().map(q -> q.requestId).toList());
                assertThat(perRequest.values()).as("exactly one answer each").allMatch(n -> n == 1);
                assertThat(parsed).as("answered by the opensearch preset's stages")
                        .allMatch(a -> a.trace.stream().anyMatch(t -> t.stage.startsWith("opensearch.")));
                assertThat(parsed.stream().filter(a -> "answered".equals(a.status) && a.sql != null).count())
                        .as("oracle answers: " + parsed.stream().map(a -> a.status + " " + a.error).toList())
                        .isGreaterThanOrEqualTo(valid.size() / 2);

                Map<String, String> reasonByKey = new LinkedHashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : deadLetters) {
                    assertThat(EventSchemas.deadLetterViolations(EventJson.mapper().readTree(r.value()))).isEmpty();
                    DeadLetterEvent d = EventJson.parseDeadLetter(r.value());
                    assertThat(d.topic).isEqualTo(JobTopics.QUESTIONS + "-sql");
                    reasonByKey.put(new String(r.key(), StandardCharsets.UTF_8), d.reason);
                }
                assertThat(reasonByKey).hasSize(invalid.size());
                assertThat(reasonByKey.get("bad-0")).startsWith("not_json: ");
                assertThat(reasonByKey.get("bad-1")).startsWith("unknown_database: ");
                assertThat(reasonByKey.get("bad-2")).startsWith("key_mismatch: ");
            } finally {
                insert.getJobClient().orElseThrow().cancel().get();
            }
        }
    }

    @Test
    void textToSqlAnswersQuestionsGivenAsColumns() throws Exception {
        Path sharedData = sharedData();
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.LLM_MODEL.key(), "test-model"));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            FlowSqlJob.configure(env, config);
            StreamTableEnvironment tables = StreamTableEnvironment.create(env);
            // the script's first statements: settings, job parameters and the functions (not its Kafka tables)
            FlowSqlScript.run(tables, new SqlScript(FlowSqlScript.bundledFor(config).statements().stream()
                    .filter(s -> s.startsWith("SET") || s.startsWith("CREATE TEMPORARY FUNCTION"))
                    .collect(Collectors.joining(";\n", "", ";\n"))));
            String question = SpiderQuestions.of(sharedData, "concert_singer", 1).get(0).question;
            TableResult result = tables.executeSql("SELECT q.id, t.status, t.question_type, t.sql_query, t.error_kind, t.answer "
                    + "FROM (VALUES (1, '" + question.replace("'", "''") + "', 'concert_singer', CAST(NULL AS STRING)), "
                    + "(2, 'How many pets?', 'no_such_db', CAST(NULL AS STRING)), "
                    + "(3, 'How many singers are there?', 'concert_singer', '{\"options\": {\"strategy\": \"mag-sql\"}}'), "
                    + "(4, 'How many singers are there?', 'concert_singer', '{\"options\": {\"disabled_stages\": [\"no.such.stage\"]}}')"
                    + ") AS q(id, question, db_id, options), "
                    + "LATERAL TABLE(TEXT_TO_SQL(q.question, q.db_id, q.options)) AS t");
            Map<Integer, Row> byId = new LinkedHashMap<>();
            try (CloseableIterator<Row> rows = result.collect()) {
                rows.forEachRemaining(r -> byId.put((Integer) r.getField(0), r));
            }
            assertThat(byId).hasSize(4);
            assertThat(byId.get(1).getField(1)).as("row 1: %s", byId.get(1)).isEqualTo("answered");
            assertThat((String) byId.get(1).getField(3)).isNotBlank();
            assertThat(byId.get(2).getField(1)).isEqualTo("rejected");
            assertThat(byId.get(2).getField(4)).isEqualTo("unknown_database");
            AnswerEvent magSql = EventJson.parseAnswer(((String) byId.get(3).getField(5)).getBytes(StandardCharsets.UTF_8));
            assertThat(magSql.trace).as("the per-question preset ran").anyMatch(t -> t.stage.startsWith("magsql."));
            assertThat(byId.get(4).getField(1)).isEqualTo("rejected");
            assertThat(byId.get(4).getField(4)).isEqualTo("unknown_stage");
        }
    }
}

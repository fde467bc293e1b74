package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Knowledge entries in the running job (real broker, MiniCluster, the simulated LLM over HTTP): a definition sent to
 * the knowledge topic reaches the prompts of the questions that mention its term within 2 s and is named in their
 * answers; questions on another database never see it (the simulator's request log); once retracted it is no longer
 * used.
 */
class KnowledgeITCase {
    private static final String KNOWLEDGE = "knowledge";
    private static final String DEFINITION = "a singer older than 40 (singer.Age > 40)";
    private static final String EVIDENCE = "\"veteran singer\" means: " + DEFINITION;
    private static final String QUESTION = "How many veteran singers are there?";
    private static final long PROBE_EVERY_MS = 250;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec(JobTopics.QUESTIONS, 2),
            new TopicSpec(JobTopics.ANSWERS, 2), new TopicSpec(JobTopics.DEAD_LETTERS, 1), new TopicSpec(KNOWLEDGE, 1));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void aDefinitionReachesLaterPromptsOfItsDatabaseOnlyUntilItIsRetracted() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mag-sql",
                    JobOptions.KNOWLEDGE_TOPIC.key(), KNOWLEDGE,
                    JobOptions.FEEDBACK_TOPIC.key(), "",
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms"));
            Map<String, Long> sentAt = new LinkedHashMap<>();
            List<QuestionEvent> all = new ArrayList<>();
            long added;
            long retracted;
            try (JobCluster.RunningJob job = JobCluster.start("knowledge", config);
                 KafkaProducer<byte[], byte[]> producer = producer()) {
                send(producer, all, sentAt, question("before", "concert_singer", QUESTION));
                topics.committedAnswers(1, Duration.ofSeconds(90), Duration.ZERO);

                added = sendKnowledge(producer, "k-veteran", "{\"action\": \"add\", \"knowledge_id\": \"k-veteran\", \"db_id\": \"concert_singer\", "
                        + "\"term\": \"veteran singer\", \"definition\": \"" + DEFINITION + "\"}");
                for (int i = 0; i < 8; i++) {
                    send(producer, all, sentAt, question("probe-" + i, "concert_singer", QUESTION));
                    Thread.sleep(PROBE_EVERY_MS);
                }
                send(producer, all, sentAt, question("other-db", "pets_1", "How many veteran singers own pets?"));
                topics.committedAnswers(all.size(), Duration.ofSeconds(120), Duration.ZERO);

                retracted = sendKnowledge(producer, "r-veteran", "{\"action\": \"retract\", \"knowledge_id\": \"r-veteran\", \"retracts\": \"k-veteran\"}");
                for (int i = 0; i < 4; i++) {
                    send(producer, all, sentAt, question("after-" + i, "concert_singer", QUESTION));
                    Thread.sleep(PROBE_EVERY_MS * 2);
                }
                Map<String, AnswerEvent> answers = topics.committedAnswers(all.size(), Duration.ofSeconds(120), Duration.ZERO)
                        .stream().collect(Collectors.toMap(a -> a.requestId, Function.identity(), (a, b) -> a));
                assertThat(answers.keySet()).containsAll(all.stream().map(q -> q.requestId).toList());

                assertThat(answers.get("before").knowledgeUsed).isNull();
                assertThat(answers.get("before").trace).allMatch(t -> t.knowledgeUsed == null);
                assertThat(prompts(llm, "before")).isNotEmpty().noneMatch(p -> p.contains(EVIDENCE));

                String firstUse = null;
                for (int i = 0; i < 8; i++) {
                    String id = "probe-" + i;
                    if (answers.get(id).knowledgeUsed != null) {
                        assertThat(answers.get(id).knowledgeUsed).containsExactly("k-veteran");
                        assertThat(prompts(llm, id)).as("every prompt of %s carries the definition", id)
                                .isNotEmpty().allMatch(p -> p.contains(EVIDENCE));
                        // so every stage that sent a chat call names the entry in its own trace entry, and no other does
                        assertThat(answers.get(id).trace).as("the per-stage trace of %s", id)
                                .anyMatch(t -> t.llmCalls > 0)
                                .allMatch(t -> t.llmCalls > 0 ? List.of("k-veteran").equals(t.knowledgeUsed) : t.knowledgeUsed == null);
                        firstUse = firstUse == null ? id : firstUse;
                    } else {
                        assertThat(firstUse).as("once used, every later probe uses it (%s)", id).isNull();
                    }
                }
                assertThat(firstUse).as("a probe used the entry").isNotNull();
                double seconds = (sentAt.get(firstUse) - added) / 1e9;
                long firstPrompt = llm.requests().stream()
                        .filter(r -> r.request().lastUserMessage().contains(EVIDENCE)).mapToLong(RecordedRequest::receivedAtNanos)
                        .min().orElseThrow();
                System.out.printf("knowledge entry in the topic → first question that used it sent: %.2f s (%s); → first prompt "
                        + "carrying it at the model: %.2f s (includes that question's own way to its first model call)%n",
                        seconds, firstUse, (firstPrompt - added) / 1e9);
                assertThat(seconds).as("entry to first use").isLessThanOrEqualTo(2.0);

                assertThat(answers.get("other-db").knowledgeUsed).as("another database's question").isNull();
                assertThat(answers.get("other-db").trace).allMatch(t -> t.knowledgeUsed == null);
                assertThat(prompts(llm, "other-db")).isNotEmpty().noneMatch(p -> p.contains(DEFINITION));

                List<String> unusedAfter = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String id = "after-" + i;
                    double since = (sentAt.get(id) - retracted) / 1e9;
                    if (answers.get(id).knowledgeUsed == null && prompts(llm, id).stream().noneMatch(p -> p.contains(DEFINITION))) {
                        unusedAfter.add(id + String.format(" (%.2f s after the retraction)", since));
                    } else {
                        assertThat(since).as("%s still used the retracted entry", id).isLessThan(2.0);
                    }
                }
                System.out.println("no longer used after the retraction: " + unusedAfter);
                assertThat(unusedAfter).as("the last probe, 1.5 s after the retraction").anyMatch(s -> s.startsWith("after-3"));
            }
        }
    }

    /**
     * The definition set ({@code knowledge/definition-questions.json}: ten questions naming a glossary term, one only
     * near its entry's meaning) answered before and after its entries are sent, scored by execution on the Spider
     * databases. The simulator answers each with its gold SQL only when the prompt carries the entry's rule, else with
     * the SQL written without it: this measures that a definition reaches the model's prompt, by term or by embedding
     * similarity, not a model's skill at using it.
     */
    @Test
    void theDefinitionSetIsAnsweredOnlyOnceItsEntriesAreSent() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path set = Path.of(KnowledgeITCase.class.getResource("/knowledge/definition-questions.json").toURI());
        List<com.fasterxml.jackson.databind.JsonNode> items = new ArrayList<>();
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(set.toFile()).forEach(items::add);
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(set)).build())) {
            // topics of its own: the other test's answers and entries never mix with these
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers(), "definition-set", 2);
            String knowledgeTopic = KNOWLEDGE + "-definition-set";
            KAFKA.broker().createTopics(new TopicSpec(knowledgeTopic, 1));
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mag-sql",
                    JobOptions.KNOWLEDGE_TOPIC.key(), knowledgeTopic,
                    JobOptions.KNOWLEDGE_SIMILARITY.key(), "0.25",
                    JobOptions.FEEDBACK_TOPIC.key(), "",
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms"));
            Map<String, Long> sentAt = new LinkedHashMap<>();
            List<QuestionEvent> all = new ArrayList<>();
            try (JobCluster.RunningJob job = JobCluster.start("definition-set", config);
                 KafkaProducer<byte[], byte[]> producer = producer()) {
                for (int i = 0; i < items.size(); i++) {
                    send(producer, topics.questionsTopic(), all, sentAt, setQuestion("before-" + i, items.get(i)));
                }
                topics.committedAnswers(all.size(), Duration.ofSeconds(90), Duration.ZERO);

                long sent = 0;
                for (int i = 0; i < items.size(); i++) {
                    com.fasterxml.jackson.databind.JsonNode k = items.get(i).path("knowledge");
                    sent = sendKnowledge(producer, knowledgeTopic, "def-" + i, EventJson.mapper().writeValueAsString(Map.of("action", "add",
                            "knowledge_id", "def-" + i, "db_id", items.get(i).path("db_id").asText(),
                            "term", k.path("term").asText(), "definition", k.path("definition").asText())));
                }
                for (int p = 0; p < 8; p++) {
                    send(producer, topics.questionsTopic(), all, sentAt, setQuestion("probe-" + p, items.get(0)));
                    Thread.sleep(PROBE_EVERY_MS);
                }
                // 2 s after the entries: every instance of the knowledge operator has them
                for (int i = 0; i < items.size(); i++) {
                    send(producer, topics.questionsTopic(), all, sentAt, setQuestion("after-" + i, items.get(i)));
                }
                Map<String, AnswerEvent> answers = topics.committedAnswers(all.size(), Duration.ofSeconds(120), Duration.ZERO)
                        .stream().collect(Collectors.toMap(a -> a.requestId, Function.identity(), (a, b) -> a));

                int before = 0;
                int after = 0;
                for (int i = 0; i < items.size(); i++) {
                    before += correct(sharedData, items.get(i), answers.get("before-" + i)) ? 1 : 0;
                    after += correct(sharedData, items.get(i), answers.get("after-" + i)) ? 1 : 0;
                    assertThat(answers.get("before-" + i).knowledgeUsed).isNull();
                    assertThat(answers.get("after-" + i).knowledgeUsed).as("after-%d (%s)", i, items.get(i).path("match").asText())
                            .contains("def-" + i);
                }
                String firstUse = null;
                for (int p = 0; p < 8 && firstUse == null; p++) {
                    List<String> used = answers.get("probe-" + p).knowledgeUsed;
                    firstUse = used != null && used.contains("def-0") ? "probe-" + p : null;
                }
                assertThat(firstUse).as("a probe used the entry").isNotNull();
                double seconds = (sentAt.get(firstUse) - sent) / 1e9;
                String rule = items.get(0).path("knowledge").path("definition").asText();
                long firstPrompt = llm.requests().stream().filter(r -> r.request().lastUserMessage().contains(rule))
                        .mapToLong(RecordedRequest::receivedAtNanos).min().orElseThrow();
                System.out.printf("definition set (%d questions, %d by similarity): EX before the entries %d/%d, after %d/%d; "
                        + "entries in the topic → first question using one sent: %.2f s (%s); → first prompt carrying it at "
                        + "the model: %.2f s%n", items.size(),
                        items.stream().filter(it -> "similarity".equals(it.path("match").asText())).count(),
                        before, items.size(), after, items.size(), seconds, firstUse, (firstPrompt - sent) / 1e9);
                assertThat(before).as("without the entries the prompts lack every rule").isZero();
                assertThat(after).as("with them every rule reaches the model").isEqualTo(items.size());
                assertThat(seconds).as("entry to first use").isLessThanOrEqualTo(2.0);
                assertThat((firstPrompt - sent) / 1e9).as("entry to the first prompt carrying it").isLessThanOrEqualTo(2.0);
            }
        }
    }

    private static QuestionEvent setQuestion(String id, com.fasterxml.jackson.databind.JsonNode item) {
        return new QuestionEvent(id, "dialogue-" + id, item.path("db_id").asText(), item.path("question").asText());
    }

    /** Whether the answer's SQL gives the gold SQL's rows (as a multiset) on the item's Spider database. */
    private static boolean correct(Path sharedData, com.fasterxml.jackson.databind.JsonNode item, AnswerEvent answer)
            throws java.sql.SQLException {
        if (answer == null || answer.sql == null) {
            return false;
        }
        String db = item.path("db_id").asText();
        Path file = sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro")) {
            return rows(c, item.path("query").asText()).equals(rows(c, answer.sql));
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private static List<String> rows(java.sql.Connection c, String sql) throws java.sql.SQLException {
        List<String> rows = new ArrayList<>();
        try (java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getString(i)).append('\u0001');
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        return rows;
    }

    /** The user messages of the simulator's requests for the question of {@code requestId}. */
    private static List<String> prompts(SimulatedLlmServer llm, String requestId) {
        return llm.requests().stream().map(RecordedRequest::request)
                .filter(r -> r.messages().stream().anyMatch(m -> m.content().contains("[" + requestId + "]")))
                .map(r -> r.lastUserMessage()).toList();
    }

    private static QuestionEvent question(String id, String db, String text) {
        // the request id inside the question text tells the prompts of each probe apart in the simulator's log
        return new QuestionEvent(id, "dialogue-" + id, db, text.replace("?", " [" + id + "]?"));
    }

    /** Sends {@code q} (flushed) and records when it was sent. */
    private static void send(KafkaProducer<byte[], byte[]> producer, List<QuestionEvent> all, Map<String, Long> sentAt,
                             QuestionEvent q) {
        send(producer, JobTopics.QUESTIONS, all, sentAt, q);
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, List<QuestionEvent> all,
                             Map<String, Long> sentAt, QuestionEvent q) {
        sentAt.put(q.requestId, System.nanoTime());
        producer.send(new ProducerRecord<>(topic, q.dialogueId.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(q)));
        producer.flush();
        all.add(q);
    }

    /** Sends a knowledge record, flushed; returns when it was in the topic. */
    private static long sendKnowledge(KafkaProducer<byte[], byte[]> producer, String key, String value) {
        return sendKnowledge(producer, KNOWLEDGE, key, value);
    }

    private static long sendKnowledge(KafkaProducer<byte[], byte[]> producer, String topic, String key, String value) {
        producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)));
        producer.flush();
        return System.nanoTime();
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}

package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.FeedbackEvent;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatedMessage;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-tenant suite through the running job (real broker, MiniCluster, the simulator over HTTP): tenant
 * {@code team-h} may read only {@code visible_note} of database {@code vault}, whose other tables hold canary values.
 * The simulator answers each question with a hostile statement as the model's SQL (a WITH name shadowing a hidden
 * table, a sub-query in a cast, the catalog, {@code PRAGMA}, bracket quoting ...), and again in every correction
 * round. No canary value, hidden column or never-named hidden table may appear in the answers topic, the dead
 * letters or any request the model was sent (the simulator's request log); the controls are answered, every answer
 * carries its tenant, and the model is told the hidden table is not available.
 */
class HostileTenantJobITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2)[0], JobTopics.specs(2)[1],
            JobTopics.specs(2)[2], new TopicSpec(JobTopics.FEEDBACK, 1));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    private static final String TENANT = "team-h";
    /** What must never leave the database for this tenant (compared lower-case). */
    private static final List<String> CANARIES = List.of("qx7zk", "pin_zq9", "ledger_zq", "memo_zq", "4411-zq");

    /** Question → the statement the "model" answers it with. */
    private static final Map<String, String> HOSTILE = new LinkedHashMap<>();

    static {
        HOSTILE.put("List every vault row.", "SELECT * FROM secret_vault");
        HOSTILE.put("Show the notes beside the vault.",
                "SELECT * FROM (WITH secret_vault AS (SELECT 1 AS x) SELECT * FROM visible_note) a, secret_vault");
        HOSTILE.put("Show notes or codes.", "SELECT note FROM visible_note WHERE EXISTS (WITH secret_vault AS "
                + "(SELECT 1 AS x) SELECT x FROM secret_vault) UNION ALL SELECT code FROM secret_vault");
        HOSTILE.put("Show the bracketed codes.", "SELECT [code] FROM [secret_vault]");
        HOSTILE.put("Which tables exist?", "SELECT name, sql FROM sqlite_master");
        HOSTILE.put("Describe the vault table.", "SELECT * FROM pragma_table_info('secret_vault')");
        HOSTILE.put("Show the first code beside each note.", "SELECT note, (SELECT code FROM secret_vault LIMIT 1) FROM visible_note");
        HOSTILE.put("Cast the first code.", "SELECT CAST((SELECT code FROM secret_vault LIMIT 1) AS integer)");
        HOSTILE.put("Notes and codes together.", "SELECT note FROM visible_note UNION SELECT code FROM secret_vault");
        HOSTILE.put("Vault rows from main.", "SELECT * FROM main.secret_vault");
        HOSTILE.put("Vault rows through a name.", "WITH a AS (SELECT * FROM secret_vault) SELECT * FROM a");
        HOSTILE.put("Pragma the vault.", "PRAGMA table_info(secret_vault)");
        HOSTILE.put("Show the schema rows.", "SELECT * FROM sqlite_schema");
        HOSTILE.put("All codes in one line.", "SELECT group_concat(code) FROM secret_vault");
    }

    /**
     * Feedback the tenant sends (record key → SQL of a pair on {@code vault}): its SQL is checked through the tenant's
     * door, so each is refused and dead-lettered; "fb-ahead" reads only the tenant's table but is stamped 30 minutes
     * ahead (more than the job's 5 minutes; the broker itself rejects more than an hour by default,
     * message.timestamp.after.max.ms), so it is dead-lettered too (it must not move the live library's clock).
     */
    private static final Map<String, String> HOSTILE_FEEDBACK = new LinkedHashMap<>();

    static {
        HOSTILE_FEEDBACK.put("fb-codes", "SELECT code FROM secret_vault");
        HOSTILE_FEEDBACK.put("fb-cast", "SELECT CAST((SELECT code FROM secret_vault LIMIT 1) AS integer)");
        HOSTILE_FEEDBACK.put("fb-shadow", HOSTILE.get("Show the notes beside the vault."));
        HOSTILE_FEEDBACK.put("fb-ahead", "SELECT note FROM visible_note");
    }

    private static final String COUNT_NOTES = "How many notes are there?";
    private static final String SHADOW_NOTES = "List the notes through a shadowing name.";

    @Test
    void aHostileTenantsAnswersDeadLettersAndPromptsCarryNoHiddenValue(@TempDir Path dir) throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path root = dir.resolve("dbs");
        buildVault(root.resolve("vault").resolve("vault.sqlite"));
        Path oracle = dir.resolve("hostile-oracle.json");
        ArrayNode items = EventJson.mapper().createArrayNode();
        Map<String, String> all = new LinkedHashMap<>(HOSTILE);
        all.put(COUNT_NOTES, "SELECT count(*) FROM visible_note");
        all.put(SHADOW_NOTES, "WITH secret_vault AS (SELECT note FROM visible_note) SELECT note FROM secret_vault ORDER BY note");
        all.forEach((q, sql) -> items.addObject().put("db_id", "vault").put("question", q).put("query", sql));
        Files.writeString(oracle, items.toString());

        List<QuestionEvent> questions = new ArrayList<>();
        int n = 0;
        for (String q : all.keySet()) {
            QuestionEvent e = new QuestionEvent("h" + n, "dialogue-" + n, "vault", q);
            e.tenant = TENANT;
            questions.add(e);
            n++;
        }

        SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(oracle)).recordRequests(true).build());
        try (llm) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.LLM_MODEL.key(), "test-model",
                    JobOptions.STRATEGY.key(), "opensearch",
                    JobOptions.PRESETS.key(), "opensearch",
                    JobOptions.AGENT_CANDIDATES.key(), "1",
                    JobOptions.AGENT_OPENSEARCH_CORRECT_ROUNDS.key(), "1",
                    JobOptions.DATABASE_ROOTS.key(), root.toString(),
                    "tenants." + TENANT + ".databases", "vault",
                    "tenants." + TENANT + ".tables.vault", "visible_note"));
            try (JobCluster.RunningJob job = JobCluster.start("hostile-tenant-it", config)) {
                topics.sendQuestions(questions);
                sendFeedback();
                List<ConsumerRecord<byte[], byte[]>> records =
                        topics.committed(JobTopics.ANSWERS, questions.size(), Duration.ofSeconds(120), Duration.ofSeconds(2));
                List<ConsumerRecord<byte[], byte[]>> deadLetters =
                        topics.committed(JobTopics.DEAD_LETTERS, HOSTILE_FEEDBACK.size(), Duration.ofSeconds(60), Duration.ofSeconds(1));

                List<AnswerEvent> answers = records.stream().map(r -> EventJson.parseAnswer(r.value())).toList();
                assertThat(answers).extracting(a -> a.requestId).containsExactlyInAnyOrderElementsOf(
                        questions.stream().map(q -> q.requestId).toList());
                assertThat(answers).allSatisfy(a -> assertThat(a.tenant).isEqualTo(TENANT));

                for (ConsumerRecord<byte[], byte[]> r : records) {
                    assertNoCanary("answer", new String(r.value(), StandardCharsets.UTF_8));
                }
                for (ConsumerRecord<byte[], byte[]> r : deadLetters) {
                    assertNoCanary("dead letter", new String(r.value(), StandardCharsets.UTF_8));
                }
                assertThat(deadLetters).map(r -> EventJson.parseDeadLetter(r.value()))
                        .filteredOn(d -> HOSTILE_FEEDBACK.containsKey(d.key))
                        .allMatch(d -> d.reason.startsWith("feedback_refused: "))
                        .extracting(d -> d.key).containsExactlyInAnyOrderElementsOf(HOSTILE_FEEDBACK.keySet());
                List<RecordedRequest> requests = llm.requests();
                assertThat(requests).isNotEmpty();
                StringBuilder told = new StringBuilder();
                for (RecordedRequest request : requests) {
                    String text = text(request);
                    assertNoCanary("prompt", text);
                    told.append(text);
                }
                assertThat(told.toString()).as("the correction rounds told the model").contains("table secret_vault is not available");

                AnswerEvent count = answerTo(answers, questions, COUNT_NOTES);
                assertThat(count.status).isEqualTo("answered");
                assertThat(count.result.rows).containsExactly(List.of("3"));
                AnswerEvent shadow = answerTo(answers, questions, SHADOW_NOTES);
                assertThat(shadow.status).isEqualTo("answered");
                assertThat(shadow.result.rows).containsExactly(List.of("alpha note"), List.of("beta note"), List.of("gamma note"));
                for (String q : HOSTILE.keySet()) {
                    AnswerEvent a = answerTo(answers, questions, q);
                    assertThat(a.status).as("%s: %s", q, a.error).isNotEqualTo("answered");
                }
                System.out.printf("hostile job: %d answers, %d dead letters, %d model requests checked%n",
                        records.size(), deadLetters.size(), requests.size());
                deadLetters.forEach(r -> System.out.println("  dead letter: " + EventJson.parseDeadLetter(r.value()).reason));
            }
        }
    }

    /** The tenant's feedback pairs, "fb-ahead" with a Kafka timestamp 30 minutes ahead. */
    private static void sendFeedback() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        long ahead = System.currentTimeMillis() + Duration.ofMinutes(30).toMillis();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            HOSTILE_FEEDBACK.forEach((id, sql) -> {
                FeedbackEvent pair = FeedbackEvent.pair(id, "vault", "Which codes are there?", sql);
                pair.tenant = TENANT;
                producer.send(new ProducerRecord<>(JobTopics.FEEDBACK, null, id.equals("fb-ahead") ? ahead : null,
                        id.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(pair)));
            });
            producer.flush();
        }
    }

    private static void assertNoCanary(String where, String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (String canary : CANARIES) {
            assertThat(lower).as("%s carries hidden %s", where, canary).doesNotContain(canary);
        }
    }

    private static AnswerEvent answerTo(List<AnswerEvent> answers, List<QuestionEvent> questions, String question) {
        String id = questions.stream().filter(q -> q.question.equals(question)).findFirst().orElseThrow().requestId;
        return answers.stream().filter(a -> a.requestId.equals(id)).findFirst().orElseThrow();
    }

    private static String text(RecordedRequest request) {
        StringBuilder text = new StringBuilder();
        for (SimulatedMessage m : request.request().messages()) {
            text.append(m.content()).append('\n');
        }
        return text.toString();
    }

    /** {@code visible_note} (the tenant's), {@code secret_vault} (named by the hostile SQL) and {@code ledger_zq} (never named). */
    private static void buildVault(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE visible_note (id INTEGER PRIMARY KEY, note TEXT)");
            s.execute("INSERT INTO visible_note VALUES (1, 'alpha note'), (2, 'beta note'), (3, 'gamma note')");
            s.execute("CREATE TABLE secret_vault (id INTEGER PRIMARY KEY, code TEXT, pin_zq9 TEXT)");
            s.execute("INSERT INTO secret_vault VALUES (1, 'CANARY-QX7ZK-ALPHA', '4411-zq-one'), "
                    + "(2, 'CANARY-QX7ZK-BRAVO', '4411-zq-two')");
            s.execute("CREATE TABLE ledger_zq (id INTEGER PRIMARY KEY, memo_zq TEXT)");
            s.execute("INSERT INTO ledger_zq VALUES (1, 'CANARY-QX7ZK-LEDGER')");
        }
    }
}

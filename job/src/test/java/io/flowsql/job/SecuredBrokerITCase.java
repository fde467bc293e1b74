package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.devstack.CapturedLogs;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.SelfSignedStores;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.job.cli.FlowSqlCli;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.job.sql.FlowSqlScript;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The job against a secured broker: devstack's KRaft broker with a SASL_SSL listener (a SCRAM-SHA-512 user made with
 * the Admin API, a keystore and truststore made here with the JDK's keytool). The DataStream job with its stage journal,
 * the CLI (ask, watch) and then the Flink SQL path reach it with the credentials given by reference
 * (kafka.client-file); a wrong password is refused; and no secret appears in the logs, the CLI's output, the answers,
 * a dead letter, the shown options, the printed SQL script or the SQL path's job parameters (what Flink's web UI shows).
 */
class SecuredBrokerITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    @Test
    void theJobTheJournalAndTheCliWorkOnSaslSslWithCredentialsByReferenceAndShowNoSecret(@TempDir Path dir) throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        String keystorePassword = "ks-" + UUID.randomUUID();
        String truststorePassword = "ts-" + UUID.randomUUID();
        String scramPassword = "scram-" + UUID.randomUUID();
        List<String> secrets = List.of(keystorePassword, truststorePassword, scramPassword);
        Path keystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("trust.p12");
        SelfSignedStores.make(dir, keystore, keystorePassword, truststore, truststorePassword);

        CapturedLogs logs = CapturedLogs.start();
        String logged;
        List<String> outputs = new ArrayList<>();
        try (LocalKafkaBroker broker = LocalKafkaBroker.startSaslSsl(dir.resolve("kafka"), keystore, keystorePassword)) {
            broker.createTopics(JobTopics.specs(2));
            broker.createScramUser("flowsql", scramPassword);
            Path clientFile = dir.resolve("kafka-client.properties");
            Files.writeString(clientFile, clientSecrets(scramPassword, truststorePassword));
            Map<String, String> inline = Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
                    "ssl.truststore.location", truststore.toString(), "ssl.truststore.type", "PKCS12");
            String secured = broker.saslSslBootstrapServers();

            Path wrongFile = dir.resolve("wrong.properties");
            Files.writeString(wrongFile, clientSecrets("not-" + scramPassword, truststorePassword));
            try (Admin wrong = new KafkaClientFactory(secured, inline, wrongFile.toString()).admin(Map.of())) {
                assertThatThrownBy(() -> wrong.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                        .as("a wrong password is refused: the listener does check credentials")
                        .hasRootCauseInstanceOf(org.apache.kafka.common.errors.SaslAuthenticationException.class);
            }

            Map<String, String> options = new java.util.HashMap<>(Map.of(
                    JobOptions.KAFKA_CLIENT_FILE.key(), clientFile.toString(),
                    JobOptions.JOURNAL_TOPIC.key(), "stage-journal",
                    JobOptions.LLM_MODEL.key(), "test-model"));
            inline.forEach((k, v) -> options.put(JobOptions.KAFKA_CLIENT_PREFIX + k, v));
            try (OracleLlm llm = OracleLlm.start(sharedData)) {
                JobConfig config = new JobTopics(secured).jobConfig(sharedData, llm.baseUrl(), options);
                outputs.add(config.explicitValues().toString());
                outputs.add(FlowSqlScript.bundledFor(config).text());
                try (JobCluster.RunningJob job = JobCluster.start("secured-broker", config)) {
                    List<String> cliKafka = new ArrayList<>(List.of("-b", secured, "--kafka-client-file", clientFile.toString()));
                    inline.forEach((k, v) -> cliKafka.addAll(List.of("--kafka-client", k + "=" + v)));
                    Path ids = dir.resolve("ids.txt");
                    List<String> ask = new ArrayList<>(List.of("ask", "--db", "concert_singer", "--ids-file", ids.toString()));
                    ask.addAll(cliKafka);
                    ask.addAll(List.of("How many singers do we have?", "What is the average age of all singers?"));
                    outputs.add(cli(0, ask));
                    List<String> watch = new ArrayList<>(List.of("watch", "--ids-file", ids.toString(), "--timeout", "120s", "--json"));
                    watch.addAll(cliKafka);
                    String watched = cli(0, watch);
                    outputs.add(watched);
                    assertThat(Files.readAllLines(ids)).hasSize(2).allSatisfy(id -> assertThat(watched).contains(id));

                    List<AnswerEvent> answers = committedAnswers(config.kafkaClients(), 2, Duration.ofSeconds(60));
                    assertThat(answers).as("answered through the secured listener").hasSize(2)
                            .anyMatch(a -> "answered".equals(a.status));
                    answers.forEach(a -> outputs.add(a.toString()));
                    try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(config.kafkaClients())) {
                        producer.send(new ProducerRecord<>(JobTopics.QUESTIONS, "not a question".getBytes(StandardCharsets.UTF_8)))
                                .get(30, TimeUnit.SECONDS);
                    }
                    List<String> deadLetters = committed(config.kafkaClients(), JobTopics.DEAD_LETTERS, 1, Duration.ofSeconds(60));
                    assertThat(deadLetters).as("a refused record's dead letter, written on the secured listener").hasSize(1);
                    outputs.addAll(deadLetters);
                    assertThat(broker.topicNames()).as("the journal made its topic on the secured listener")
                            .contains("stage-journal");
                }
                // The SQL path on the same broker: it reads under the job's kafka.group-id (one position for both
                // paths), so here it is given a group of its own that reads the two questions from the beginning, and
                // its functions (with the journal) answer them again: its check of earlier answers
                // (requests.recheck-answers) is off, or it would dead-letter them as already answered; the job
                // parameters Flink's web UI shows hold no secret.
                JobConfig sqlPath = config.with(Map.of(JobOptions.GROUP_ID.key(), "secured-sql-path",
                        JobOptions.REQUEST_RECHECK_ANSWERS.key(), "0"));
                outputs.add(FlowSqlScript.bundledFor(sqlPath).text());
                StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
                FlowSqlJob.configure(env, sqlPath);
                StreamTableEnvironment tables = StreamTableEnvironment.create(env);
                TableResult insert = FlowSqlScript.run(tables, FlowSqlScript.bundledFor(sqlPath));
                try {
                    outputs.add(String.valueOf(tables.getConfig().get(PipelineOptions.GLOBAL_JOB_PARAMETERS)));
                    assertThat(committedAnswers(config.kafkaClients(), 4, Duration.ofSeconds(180))).as("two answers of each path").hasSize(4);
                } finally {
                    insert.getJobClient().orElseThrow().cancel().get();
                }
            }
        } finally {
            logged = logs.stop();
        }
        outputs.add(logged);
        assertThat(logged).as("the journal opened on the secured broker").contains("stage journal on topic stage-journal");
        for (String output : outputs) {
            for (String secret : secrets) {
                assertThat(output).as("no secret in any output").doesNotContain(secret);
            }
        }
    }

    private static String clientSecrets(String scramPassword, String truststorePassword) {
        return "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"flowsql\" "
                + "password=\"" + scramPassword + "\";\n" + "ssl.truststore.password=" + truststorePassword + "\n";
    }

    /** Runs the CLI, expecting {@code exitCode}; returns what it printed (stdout and stderr). */
    private static String cli(int exitCode, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream before = System.out;
        PrintStream beforeErr = System.err;
        PrintStream captured = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code;
        try {
            System.setOut(captured);
            System.setErr(captured);
            code = new CommandLine(new FlowSqlCli()).execute(args.toArray(String[]::new));
        } finally {
            System.setOut(before);
            System.setErr(beforeErr);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(args.get(0) + " printed: " + printed).isEqualTo(exitCode);
        return printed;
    }

    private static List<AnswerEvent> committedAnswers(KafkaClientFactory kafka, int count, Duration wait) throws Exception {
        List<AnswerEvent> answers = new ArrayList<>();
        for (String answer : committed(kafka, JobTopics.ANSWERS, count, wait)) {
            answers.add(EventJson.parseAnswer(answer.getBytes(StandardCharsets.UTF_8)));
        }
        return answers;
    }

    /** The committed records of {@code topic} as text, until {@code count} are read or {@code wait} is over. */
    private static List<String> committed(KafkaClientFactory kafka, String topic, int count, Duration wait) {
        List<String> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(kafka, "secured-test", false)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + wait.toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    records.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return records;
    }
}

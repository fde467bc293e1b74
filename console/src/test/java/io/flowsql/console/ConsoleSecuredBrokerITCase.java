package io.flowsql.console;

import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.devstack.CapturedLogs;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.SelfSignedStores;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.EventJson;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.flowsql.console.RawHttp.host;
import static io.flowsql.console.RawHttp.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console against a secured broker: devstack's KRaft broker with a SASL_SSL listener (SCRAM-SHA-512, stores made
 * with keytool), the console given the job's {@code kafka.client.*} (the truststore's password inline) and, by
 * reference, {@code kafka.client-file} with the SCRAM credentials. A question asked on the page reaches the questions
 * topic, an answer committed for it reaches the page's event stream, /api/health says the follower follows; no reply
 * carries a secret. Then the broker goes away and /api/health says so (503, broker unreachable) while the page itself
 * is still served. Everything logged meanwhile (the project's and Kafka's loggers at INFO, the clients' configuration
 * dumps included) is captured: no secret in it either.
 */
class ConsoleSecuredBrokerITCase {

    @Test
    void theConsoleAsksAndFollowsOverSaslSslWithCredentialsByReferenceAndReportsTheBrokerGone(@TempDir Path dir)
            throws Exception {
        String keystorePassword = "ks-" + UUID.randomUUID();
        String truststorePassword = "ts-" + UUID.randomUUID();
        String scramPassword = "scram-" + UUID.randomUUID();
        Path keystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("trust.p12");
        SelfSignedStores.make(dir, keystore, keystorePassword, truststore, truststorePassword);
        List<String> replies = new ArrayList<>();

        CapturedLogs logs = CapturedLogs.start("org.apache.kafka");
        String logged;
        LocalKafkaBroker broker = LocalKafkaBroker.startSaslSsl(dir.resolve("kafka"), keystore, keystorePassword);
        try {
            broker.createTopics(new TopicSpec("questions", 1), new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1));
            broker.createScramUser("flowsql", scramPassword);
            Path clientFile = dir.resolve("kafka-client.properties");
            Files.writeString(clientFile, "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                    + "username=\"flowsql\" password=\"" + scramPassword + "\";\n");
            Map<String, String> inline = Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
                    "ssl.truststore.location", truststore.toString(), "ssl.truststore.type", "PKCS12",
                    "ssl.truststore.password", truststorePassword);
            Map<String, String> options = new HashMap<>(Map.of(
                    KafkaOptions.BOOTSTRAP_SERVERS.key(), broker.saslSslBootstrapServers(),
                    KafkaOptions.KAFKA_CLIENT_FILE.key(), clientFile.toString(),
                    DatabaseOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString()));
            inline.forEach((k, v) -> options.put(KafkaOptions.KAFKA_CLIENT_PREFIX + k, v));
            Settings job = ConsoleSettings.load(null, options);
            KafkaClientFactory kafka = KafkaOptions.clients(job);

            try (ConsoleServer console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null, job))) {
                URI uri = URI.create(console.url());
                // the follower reports "starting" until it has the topics' partitions over the secured listener
                RawHttp.Reply health = request(uri, "GET", "/api/health", host(uri), Map.of(), null);
                long followingBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (health.status() != 200 && health.body().contains("\"state\":\"starting\"") && System.nanoTime() < followingBy) {
                    Thread.sleep(250);
                    health = request(uri, "GET", "/api/health", host(uri), Map.of(), null);
                }
                replies.add(health.body());
                assertThat(health.status()).as(health.body()).isEqualTo(200);
                assertThat(health.body()).contains("\"state\":\"following\"");

                RawHttp.Reply page = request(uri, "GET", "/", host(uri), Map.of(), null);
                String session = page.cookie(ConsoleServer.SESSION_COOKIE);
                RawHttp.Reply asked = request(uri, "POST", "/api/ask", host(uri), Map.of("Content-Type", "application/json",
                        Access.CSRF_HEADER, "1", "Cookie", ConsoleServer.SESSION_COOKIE + "=" + session),
                        "{\"db\":\"concert_singer\",\"question\":\"How many singers do we have?\"}");
                replies.add(asked.body());
                assertThat(asked.status()).as(asked.body()).isEqualTo(200);
                String requestId = EventJson.mapper().readTree(asked.body()).get("request_id").asText();
                String dialogueId = EventJson.mapper().readTree(asked.body()).get("dialogue_id").asText();

                assertThat(questionsOnTopic(kafka)).as("the question went through the secured listener").contains(requestId);

                try (KafkaProducer<byte[], byte[]> answers = KafkaClients.questionsProducer(kafka)) {
                    String answer = "{\"request_id\":\"" + requestId + "\",\"dialogue_id\":\"" + dialogueId
                            + "\",\"db_id\":\"concert_singer\",\"status\":\"answered\",\"sql\":\"SELECT count(*) FROM singer\"}";
                    answers.send(new ProducerRecord<>("answers", dialogueId.getBytes(StandardCharsets.UTF_8),
                            answer.getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
                }
                String streamed = streamUntil(uri, session, "\"status\":\"answered\"");
                replies.add(streamed);
                assertThat(streamed).as("the answer reached the page's stream").contains("event: answer")
                        .contains("\"request_id\":\"" + requestId + "\"");

                broker.close();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                RawHttp.Reply gone;
                do {
                    Thread.sleep(500);
                    gone = request(uri, "GET", "/api/health", host(uri), Map.of(), null);
                } while (gone.status() == 200 && System.nanoTime() < deadline);
                replies.add(gone.body());
                assertThat(gone.status()).as(gone.body()).isEqualTo(503);
                assertThat(gone.body()).contains("\"state\":\"broker_unreachable\"");
                assertThat(request(uri, "GET", "/", host(uri), Map.of(), null).status()).as("the page is still served")
                        .isEqualTo(200);
            }
        } finally {
            broker.close();
            logged = logs.stop();
        }
        for (String reply : replies) {
            for (String secret : List.of(keystorePassword, truststorePassword, scramPassword)) {
                assertThat(reply).as("no secret in a reply").doesNotContain(secret);
            }
        }
        assertThat(logged).as("the capture saw the console start and its Kafka clients' configuration")
                .contains("console at ").contains("ConsumerConfig values").contains("ProducerConfig values")
                .contains("sasl.jaas.config = [hidden]").contains("ssl.truststore.password = [hidden]");
        for (String secret : List.of(keystorePassword, truststorePassword, scramPassword)) {
            assertThat(logged).as("no secret in the logs").doesNotContain(secret);
        }
    }

    private static String questionsOnTopic(KafkaClientFactory kafka) {
        StringBuilder seen = new StringBuilder();
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(kafka, "console-secured-test", false)) {
            consumer.subscribe(List.of("questions"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    seen.append(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return seen.toString();
    }

    /** What the session's event stream sends until {@code expected} appears (or 30 s pass). */
    private static String streamUntil(URI uri, String session, String expected) throws Exception {
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(RawHttp.head("GET", "/api/events", host(uri),
                    Map.of("Cookie", ConsoleServer.SESSION_COOKIE + "=" + session), 0));
            InputStream in = s.getInputStream();
            assertThat(RawHttp.readHead(in).status()).isEqualTo(200);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!got.toString(StandardCharsets.UTF_8).contains(expected) && System.nanoTime() < deadline) {
                int n = in.read(chunk);
                if (n < 0) {
                    break;
                }
                got.write(chunk, 0, n);
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }
}

package io.flowsql.console;

import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.databases.DatabaseOptions;
import static io.flowsql.console.RawHttp.host;
import static io.flowsql.console.RawHttp.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.EventJson;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console speaks as a tenant (real HTTP server, real broker, Spider's SQLite files): with the job's access
 * policies it will not start without a token per tenant; each token logs in as its tenant, which sees only its own
 * databases, runs SQL only through its door (a hidden table answers "not available", another tenant's database as
 * one that does not exist), uses only sessions it opened, and whose questions carry its tenant on the questions topic.
 */
class ConsoleTenantsITCase {
    private static final String TOKEN_A = "team-a-token-0123456789";
    private static final String TOKEN_B = "team-b-token-9876543210";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 1),
            new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1));

    private static Settings job() {
        return ConsoleSettings.load(null, Map.of(KafkaOptions.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers(),
                DatabaseOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString(),
                "tenants.team-a.databases", "concert_singer",
                "tenants.team-a.tables.concert_singer", "singer",
                "tenants.team-b.databases", "pets_1"));
    }

    @Test
    void withTenantsTheConsoleNeedsATokenPerTenantAndEachSeesOnlyItsOwn() throws Exception {
        assertThatThrownBy(() -> ConsoleSettings.of("127.0.0.1", 0, null, job())).hasMessageContaining("token per tenant");
        assertThatThrownBy(() -> ConsoleSettings.of("127.0.0.1", 0, null, Map.of(TOKEN_A, "team-z"), job()))
                .hasMessageContaining("'team-z'");
        assertThatThrownBy(() -> ConsoleSettings.of("127.0.0.1", 0, TOKEN_B, Map.of(TOKEN_A, "team-a"), job()))
                .hasMessageContaining("not both");

        ConsoleSettings settings = ConsoleSettings.of("127.0.0.1", 0, null,
                Map.of(TOKEN_A, "team-a", TOKEN_B, "team-b"), job());
        try (ConsoleServer console = ConsoleServer.start(settings)) {
            URI uri = URI.create(console.url());
            assertThat(request(uri, "GET", "/", host(uri), Map.of(), null).status()).as("no token, even on loopback")
                    .isEqualTo(401);
            Map<String, String> a = login(uri, TOKEN_A);
            Map<String, String> b = login(uri, TOKEN_B);

            Map<String, String> crossed = new java.util.HashMap<>(b);
            crossed.put("Cookie", a.get("Cookie"));
            assertThat(request(uri, "GET", "/api/databases", host(uri), crossed, null).status())
                    .as("team-b's token with team-a's session").isEqualTo(401);
            assertThat(databases(uri, a)).containsExactly("concert_singer");
            assertThat(databases(uri, b)).containsExactly("pets_1");

            assertThat(run(uri, a, "concert_singer", "SELECT count(*) FROM singer").path("rows").toString()).isEqualTo("[[\"6\"]]");
            JsonNode hidden = run(uri, a, "concert_singer", "SELECT name FROM stadium");
            assertThat(hidden.path("error").path("message").asText()).isEqualTo("table stadium is not available");
            assertThat(hidden.toString()).doesNotContain("Stark's Park");
            assertThat(run(uri, a, "concert_singer", "SELECT name FROM sqlite_master").has("error")).isTrue();
            assertThat(run(uri, a, "pets_1", "SELECT count(*) FROM pets").path("error").path("kind").asText())
                    .isEqualTo("unknown_database");
            assertThat(run(uri, b, "concert_singer", "SELECT count(*) FROM singer").path("error").path("kind").asText())
                    .isEqualTo("unknown_database");
            assertThat(run(uri, b, "pets_1", "SELECT count(*) FROM pets").path("rows").toString()).isEqualTo("[[\"3\"]]");

            assertThat(request(uri, "POST", "/api/ask", host(uri), a,
                    "{\"db\":\"pets_1\",\"question\":\"How many pets are there?\"}").status()).isEqualTo(400);
            assertThat(request(uri, "POST", "/api/ask", host(uri), a,
                    "{\"db\":\"concert_singer\",\"question\":\"How many singers are there?\"}").status()).isEqualTo(200);
            assertThat(request(uri, "POST", "/api/ask", host(uri), b,
                    "{\"db\":\"pets_1\",\"question\":\"How many pets are there?\"}").status()).isEqualTo(200);
            List<JsonNode> sent = questions(2);
            assertThat(sent).extracting(q -> q.path("db_id").asText() + "/" + q.path("tenant").asText())
                    .containsExactlyInAnyOrder("concert_singer/team-a", "pets_1/team-b");
        }
    }

    /** The headers of a logged-in tenant: its token, its session, the CSRF header. */
    private static Map<String, String> login(URI uri, String token) throws Exception {
        RawHttp.Reply page = request(uri, "GET", "/", host(uri), Map.of("Authorization", "Bearer " + token), null);
        assertThat(page.status()).isEqualTo(200);
        return Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json", Access.CSRF_HEADER, "1",
                "Cookie", ConsoleServer.SESSION_COOKIE + "=" + page.cookie(ConsoleServer.SESSION_COOKIE));
    }

    private static List<String> databases(URI uri, Map<String, String> headers) throws Exception {
        RawHttp.Reply reply = request(uri, "GET", "/api/databases", host(uri), headers, null);
        assertThat(reply.status()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        EventJson.mapper().readTree(reply.body()).path("databases").forEach(n -> ids.add(n.asText()));
        return ids;
    }

    private static JsonNode run(URI uri, Map<String, String> headers, String db, String sql) throws Exception {
        String body = EventJson.mapper().createObjectNode().put("db", db).put("sql", sql).toString();
        RawHttp.Reply reply = request(uri, "POST", "/api/run", host(uri), headers, body);
        assertThat(reply.status()).isEqualTo(200);
        return EventJson.mapper().readTree(reply.body());
    }

    private static List<JsonNode> questions(int atLeast) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "console-tenants-it");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<JsonNode> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("questions"));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < atLeast && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    out.add(EventJson.mapper().readTree(new String(r.value(), StandardCharsets.UTF_8)));
                }
            }
        }
        return out;
    }
}

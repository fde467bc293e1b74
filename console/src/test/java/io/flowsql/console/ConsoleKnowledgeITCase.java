package io.flowsql.console;

import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.databases.DatabaseOptions;
import static io.flowsql.console.RawHttp.host;
import static io.flowsql.console.RawHttp.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.EventJson;
import io.flowsql.knowledge.KnowledgeEntry;
import io.flowsql.knowledge.KnowledgeRecords;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/**
 * A person adds a business definition on the console (real HTTP server, real broker, Spider's SQLite files, and the
 * page in headless chromium): it lands on the knowledge topic the job reads, keyed by its id, as a record the job's
 * reader accepts, for the database picked and the tenant of the caller's token, whatever the page says; another
 * tenant's database, a malformed definition and a caller without a session are refused and send nothing; without a
 * knowledge topic the page shows no form and the endpoint answers 404.
 */
class ConsoleKnowledgeITCase {
    private static final String TOKEN_A = "team-a-token-0123456789";
    private static final String TOKEN_B = "team-b-token-9876543210";
    private static final String KNOWLEDGE = "knowledge";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 1),
            new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1), new TopicSpec(KNOWLEDGE, 1));

    private static Settings job(String knowledgeTopic) {
        return ConsoleSettings.load(null, Map.of(KafkaOptions.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers(),
                DatabaseOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString(),
                KafkaOptions.KNOWLEDGE_TOPIC.key(), knowledgeTopic,
                "tenants.team-a.databases", "concert_singer",
                "tenants.team-b.databases", "pets_1"));
    }

    @Test
    void aDefinitionAddedOnThePageReachesTheKnowledgeTopicForTheCallersTenant() throws Exception {
        ConsoleSettings settings = ConsoleSettings.of("127.0.0.1", 0, null, Map.of(TOKEN_A, "team-a", TOKEN_B, "team-b"),
                job(KNOWLEDGE));
        try (ConsoleServer console = ConsoleServer.start(settings)) {
            URI uri = URI.create(console.url());
            Map<String, String> a = login(uri, TOKEN_A);
            Map<String, String> b = login(uri, TOKEN_B);
            RawHttp.Reply listed = request(uri, "GET", "/api/databases", host(uri), a, null);
            assertThat(EventJson.mapper().readTree(listed.body()).path("knowledge").asBoolean()).isTrue();

            // the page cannot choose the tenant: a "tenant" in the body is not read
            RawHttp.Reply added = request(uri, "POST", "/api/knowledge", host(uri), a, body("concert_singer",
                    "veteran singer", "a singer older than 40 (singer.Age > 40)", "team-b"));
            assertThat(added.status()).as(added.body()).isEqualTo(200);
            String id = EventJson.mapper().readTree(added.body()).path("knowledge_id").asText();
            assertThat(id).startsWith("console-kn-");

            assertThat(request(uri, "POST", "/api/knowledge", host(uri), a,
                    body("pets_1", "old pet", "a pet older than 5", null)).status()).as("team-b's database").isEqualTo(400);
            RawHttp.Reply shortTerm = request(uri, "POST", "/api/knowledge", host(uri), b, body("pets_1", "x", "one letter", null));
            assertThat(shortTerm.status()).isEqualTo(400);
            assertThat(shortTerm.body()).contains("not a valid definition");
            Map<String, String> noSession = new HashMap<>(a);
            noSession.remove("Cookie");
            assertThat(request(uri, "POST", "/api/knowledge", host(uri), noSession,
                    body("concert_singer", "big stadium", "capacity over 10000", null)).status()).isEqualTo(401);

            try (Browser person = new Browser()) {
                person.open(console.url() + "?token=" + TOKEN_B);
                String fromPage = person.addDefinition("old pet", "a pet older than 5 (pets.pet_age > 5)");
                person.screenshot("knowledge-form");
                person.assertNoConsoleProblems();

                Map<String, KnowledgeEntry> sent = knowledgeRecords(2, Duration.ofSeconds(30));
                assertThat(sent.keySet()).as("only the two accepted definitions were sent").containsExactly(id, fromPage);
                KnowledgeEntry veteran = sent.get(id);
                assertThat(List.of(veteran.action, veteran.dbId, veteran.tenant, veteran.term, veteran.definition))
                        .containsExactly("add", "concert_singer", "team-a", "veteran singer", "a singer older than 40 (singer.Age > 40)");
                KnowledgeEntry pet = sent.get(fromPage);
                assertThat(List.of(pet.dbId, pet.tenant, pet.term)).containsExactly("pets_1", "team-b", "old pet");
            }
        }

        try (ConsoleServer without = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null,
                Map.of(TOKEN_A, "team-a", TOKEN_B, "team-b"), job("")))) {
            URI uri = URI.create(without.url());
            Map<String, String> a = login(uri, TOKEN_A);
            RawHttp.Reply listed = request(uri, "GET", "/api/databases", host(uri), a, null);
            assertThat(EventJson.mapper().readTree(listed.body()).path("knowledge").asBoolean()).isFalse();
            assertThat(request(uri, "POST", "/api/knowledge", host(uri), a,
                    body("concert_singer", "big stadium", "capacity over 10000", null)).status()).isEqualTo(404);
        }
    }

    private static String body(String db, String term, String definition, String tenant) {
        var node = EventJson.mapper().createObjectNode().put("db", db).put("term", term).put("definition", definition);
        if (tenant != null) {
            node.put("tenant", tenant);
        }
        return node.toString();
    }

    /** The headers of a logged-in tenant: its token, its session, the CSRF header. */
    private static Map<String, String> login(URI uri, String token) throws Exception {
        RawHttp.Reply page = request(uri, "GET", "/", host(uri), Map.of("Authorization", "Bearer " + token), null);
        assertThat(page.status()).isEqualTo(200);
        return Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json", Access.CSRF_HEADER, "1",
                "Cookie", ConsoleServer.SESSION_COOKIE + "=" + page.cookie(ConsoleServer.SESSION_COOKIE));
    }

    /**
     * The knowledge topic's records by key, each read as the job reads them (the schema, a known database), after
     * waiting until at least {@code count} are there and a second more for any that should not be.
     */
    private static Map<String, KnowledgeEntry> knowledgeRecords(int count, Duration within) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        KnowledgeRecords reader = new KnowledgeRecords(db -> db.equals("concert_singer") || db.equals("pets_1"), 64 * 1024);
        Map<String, KnowledgeEntry> out = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(KNOWLEDGE, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + within.toNanos();
            long settle = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, settle)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    KnowledgeRecords.Read read = reader.read(r.value(), r.timestamp());
                    assertThat(read.isValid()).as("the job's reader accepts %s (%s)", new String(r.value(), StandardCharsets.UTF_8),
                            read.refusal()).isTrue();
                    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(read.entry().knowledgeId);
                    out.put(read.entry().knowledgeId, read.entry());
                }
                if (out.size() >= count && settle == Long.MAX_VALUE) {
                    settle = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                }
            }
        }
        return out;
    }
}

package io.flowsql.console;

import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.Map;

import static io.flowsql.console.RawHttp.host;
import static io.flowsql.console.RawHttp.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who may use the console, over its real HTTP server on a real broker (no job needed): loopback host names only when
 * bound to loopback, the bearer token when one is set, the header a cross-site form cannot send on every POST, a
 * session cookie for every API call, and SQL a person types refused unless it is one read-only statement.
 */
class ConsoleAccessITCase {
    private static final String TOKEN = "a-token-of-24-characters";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 1),
            new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1));

    private static Settings job() {
        return ConsoleSettings.load(null, Map.of(KafkaOptions.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers(),
                DatabaseOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString()));
    }

    @Test
    void loopbackHostsOnlyASessionForTheApiTheHeaderOnPostsAndOnlyReadOnlySql() throws Exception {
        try (ConsoleServer console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null, job()))) {
            URI uri = URI.create(console.url());
            assertThat(request(uri, "GET", "/", "attacker.example:" + uri.getPort(), Map.of(), null).status())
                    .as("a rebound host name").isEqualTo(403);
            RawHttp.Reply page = request(uri, "GET", "/", host(uri), Map.of(), null);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.headers()).containsIgnoringCase("Content-Security-Policy: default-src 'none'")
                    .containsIgnoringCase("HttpOnly; SameSite=Strict");
            String session = page.cookie(ConsoleServer.SESSION_COOKIE);
            assertThat(session).hasSize(32);

            String run = "{\"db\":\"concert_singer\",\"sql\":\"SELECT count(*) FROM singer\"}";
            Map<String, String> json = Map.of("Content-Type", "application/json", Access.CSRF_HEADER, "1");
            assertThat(request(uri, "POST", "/api/run", host(uri), json, run).status()).as("no session").isEqualTo(401);
            Map<String, String> noHeader = Map.of("Content-Type", "application/json", "Cookie", ConsoleServer.SESSION_COOKIE + "=" + session);
            assertThat(request(uri, "POST", "/api/run", host(uri), noHeader, run).status()).as("no CSRF header").isEqualTo(403);

            Map<String, String> ok = Map.of("Content-Type", "application/json", Access.CSRF_HEADER, "1",
                    "Cookie", ConsoleServer.SESSION_COOKIE + "=" + session);
            RawHttp.Reply counted = request(uri, "POST", "/api/run", host(uri), ok, run);
            assertThat(counted.status()).isEqualTo(200);
            assertThat(counted.body()).contains("\"rows\":[[\"6\"]]");
            for (String write : new String[] {"DELETE FROM singer", "SELECT 1; DROP TABLE singer", "PRAGMA writable_schema = 1",
                    "ATTACH DATABASE '/tmp/x.sqlite' AS x", "UPDATE singer SET age = 0"}) {
                RawHttp.Reply refused = request(uri, "POST", "/api/run", host(uri), ok,
                        "{\"db\":\"concert_singer\",\"sql\":\"" + write + "\"}");
                assertThat(refused.body()).as(write).contains("\"kind\":\"refused\"");
            }
            assertThat(request(uri, "POST", "/api/run", host(uri), ok, "{\"db\":\"../../etc\",\"sql\":\"SELECT 1\"}").body())
                    .contains("\"kind\":\"unknown_database\"");
            assertThat(request(uri, "POST", "/api/ask", host(uri), ok, "{\"db\":\"no_such_db\",\"question\":\"Hi?\"}").status())
                    .isEqualTo(400);
            assertThat(request(uri, "POST", "/api/ask", host(uri), ok, "{\"dialogue_id\":\"someone-else\",\"question\":\"Hi?\"}").status())
                    .as("a dialogue this session did not start").isEqualTo(404);
            assertThat(request(uri, "POST", "/api/feedback", host(uri), ok,
                    "{\"request_id\":\"someone-elses-request\",\"verdict\":\"correct\"}").status())
                    .as("a verdict on an answer this session did not receive").isEqualTo(404);
        }
    }

    @Test
    void aTokenIsRequiredWhenSetAndBeyondLoopback() throws Exception {
        assertThatThrownBy(() -> ConsoleSettings.of("0.0.0.0", 0, null, job())).hasMessageContaining("bearer token");
        assertThatThrownBy(() -> ConsoleSettings.of("0.0.0.0", 0, "short", job())).hasMessageContaining("16-512");
        try (ConsoleServer console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, TOKEN, job()))) {
            URI uri = URI.create(console.url());
            assertThat(request(uri, "GET", "/", host(uri), Map.of(), null).status()).isEqualTo(401);
            assertThat(request(uri, "GET", "/", host(uri), Map.of("Authorization", "Bearer wrong-token-of-24-chars"), null).status())
                    .isEqualTo(401);
            assertThat(request(uri, "GET", "/", host(uri), Map.of("Authorization", "Bearer " + TOKEN), null).status()).isEqualTo(200);
            RawHttp.Reply entry = request(uri, "GET", "/?token=" + TOKEN, host(uri), Map.of(), null);
            assertThat(entry.status()).isEqualTo(303);
            String cookie = entry.cookie(Access.TOKEN_COOKIE);
            assertThat(request(uri, "GET", "/", host(uri), Map.of("Cookie", Access.TOKEN_COOKIE + "=" + cookie), null).status())
                    .isEqualTo(200);
        }
    }
}

package io.flowsql.console;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static JobConfig job() {
        return JobConfig.of(Map.of(JobOptions.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers(),
                JobOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString()));
    }

    /** One HTTP/1.1 exchange written by hand, so the Host header is whatever the test says. */
    record Reply(int status, String headers, String body) {
        String cookie(String name) {
            Matcher m = Pattern.compile("(?im)^set-cookie: " + name + "=([^;]+)").matcher(headers);
            return m.find() ? m.group(1) : null;
        }
    }

    static Reply request(URI console, String method, String path, String host, Map<String, String> headers, String body)
            throws IOException {
        try (Socket socket = new Socket(console.getHost(), console.getPort())) {
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("Content-Length: ").append(content.length).append("\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            return new Reply(Integer.parseInt(text.substring(9, 12)), text.substring(0, split), text.substring(split + 4));
        }
    }

    static String host(URI console) {
        return "127.0.0.1:" + console.getPort();
    }

    @Test
    void loopbackHostsOnlyASessionForTheApiTheHeaderOnPostsAndOnlyReadOnlySql() throws Exception {
        try (ConsoleServer console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null, job()))) {
            URI uri = URI.create(console.url());
            assertThat(request(uri, "GET", "/", "attacker.example:" + uri.getPort(), Map.of(), null).status())
                    .as("a rebound host name").isEqualTo(403);
            Reply page = request(uri, "GET", "/", host(uri), Map.of(), null);
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
            Reply counted = request(uri, "POST", "/api/run", host(uri), ok, run);
            assertThat(counted.status()).isEqualTo(200);
            assertThat(counted.body()).contains("\"rows\":[[\"6\"]]");
            for (String write : new String[] {"DELETE FROM singer", "SELECT 1; DROP TABLE singer", "PRAGMA writable_schema = 1",
                    "ATTACH DATABASE '/tmp/x.sqlite' AS x", "UPDATE singer SET age = 0"}) {
                Reply refused = request(uri, "POST", "/api/run", host(uri), ok,
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
            Reply entry = request(uri, "GET", "/?token=" + TOKEN, host(uri), Map.of(), null);
            assertThat(entry.status()).isEqualTo(303);
            String cookie = entry.cookie(Access.TOKEN_COOKIE);
            assertThat(request(uri, "GET", "/", host(uri), Map.of("Cookie", Access.TOKEN_COOKIE + "=" + cookie), null).status())
                    .isEqualTo(200);
        }
    }
}

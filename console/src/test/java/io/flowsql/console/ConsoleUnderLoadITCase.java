package io.flowsql.console;

import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.config.sql.SqlOptions;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.flowsql.console.RawHttp.host;
import static io.flowsql.console.RawHttp.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console under load and misuse, over its real HTTP server on a real broker (no job: nothing here needs an
 * answer): oversized and stalled bodies, a session holding every stream, a flood of slow "Run"s, questions piling up
 * unanswered, and a state-changing request from another origin. Each is refused with its status (and Retry-After when
 * waiting helps), and the console keeps answering everyone else.
 */
class ConsoleUnderLoadITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 1),
            new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1));

    /** Three seconds of CPU per statement at most (the budget the job would give it too). */
    private static final String SLOW_SQL = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

    private static ConsoleServer console;
    private static URI uri;

    @BeforeAll
    static void start() throws Exception {
        Settings job = ConsoleSettings.load(null, Map.of(KafkaOptions.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers(),
                DatabaseOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString(),
                SqlOptions.QUERY_TIMEOUT.key(), "3s"));
        console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null, job));
        uri = URI.create(console.url());
    }

    @AfterAll
    static void stop() throws Exception {
        console.close();
    }

    private static String newSession() throws IOException {
        RawHttp.Reply page = request(uri, "GET", "/", host(uri), Map.of(), null);
        assertThat(page.status()).isEqualTo(200);
        return page.cookie(ConsoleServer.SESSION_COOKIE);
    }

    private static Map<String, String> post(String session) {
        return Map.of("Content-Type", "application/json", Access.CSRF_HEADER, "1",
                "Cookie", ConsoleServer.SESSION_COOKIE + "=" + session);
    }

    private static RawHttp.Reply databases(String session) throws IOException {
        return request(uri, "GET", "/api/databases", host(uri), Map.of("Cookie", ConsoleServer.SESSION_COOKIE + "=" + session), null);
    }

    @Test
    void aBodyOverTheLimitIs413WhetherDeclaredOrSent() throws Exception {
        String session = newSession();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(RawHttp.head("POST", "/api/run", host(uri), post(session), 50_000_000));
            assertThat(RawHttp.readHead(socket.getInputStream()).status()).as("a declared length over the limit").isEqualTo(413);
        }
        String big = "{\"db\":\"concert_singer\",\"sql\":\"SELECT '" + "x".repeat(HttpIo.MAX_BODY_BYTES) + "'\"}";
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            Map<String, String> chunked = new HashMap<>(post(session));
            // sent without a length: the limit holds on what arrives, not on what is declared
            StringBuilder head = new StringBuilder("POST /api/run HTTP/1.1\r\nHost: " + host(uri) + "\r\nConnection: close\r\n");
            chunked.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("Transfer-Encoding: chunked\r\n\r\n");
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            byte[] content = big.getBytes(StandardCharsets.UTF_8);
            out.write((Integer.toHexString(content.length) + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(content);
            out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(RawHttp.readHead(socket.getInputStream()).status()).as("a body over the limit").isEqualTo(413);
        }
        assertThat(databases(session).status()).isEqualTo(200);
    }

    @Test
    void stalledBodiesLoseTheirConnectionsAndFreeEveryServerThread() throws Exception {
        String session = newSession();
        List<Socket> stalled = new ArrayList<>();
        try {
            // more stalled bodies than the server has threads: without a deadline nothing else would be answered
            for (int i = 0; i < ConsoleServer.THREADS + 4; i++) {
                Socket s = new Socket(uri.getHost(), uri.getPort());
                s.setSoTimeout(30_000);
                s.getOutputStream().write(RawHttp.head("POST", "/api/run", host(uri), post(session), 100));
                s.getOutputStream().write("{\"db\":".getBytes(StandardCharsets.UTF_8));   // and nothing more
                s.getOutputStream().flush();
                stalled.add(s);
            }
            long started = System.nanoTime();
            RawHttp.Reply reply = databases(session);
            long waitedMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(reply.status()).isEqualTo(200);
            // the body deadline is 10 s; without it only the JDK server's 30 s request limit would free the threads
            assertThat(waitedMillis).as("answered once the stalled bodies' deadline passed").isLessThan(18_000);
            for (Socket s : stalled) {
                assertThat(closedByServer(s.getInputStream())).as("a stalled body's connection is closed").isTrue();
            }
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    /** True when the server closes the connection (end of stream or reset) before the socket's timeout. */
    private static boolean closedByServer(InputStream in) throws IOException {
        try {
            return in.readAllBytes().length >= 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }

    @Test
    void oneSessionCannotTakeEveryEventStream() throws Exception {
        String greedy = newSession();
        Map<String, String> cookie = Map.of("Cookie", ConsoleServer.SESSION_COOKIE + "=" + greedy);
        List<Socket> streams = new ArrayList<>();
        try {
            for (int i = 0; i < Session.MAX_STREAMS; i++) {
                Socket s = new Socket(uri.getHost(), uri.getPort());
                s.setSoTimeout(10_000);
                s.getOutputStream().write(RawHttp.head("GET", "/api/events", host(uri), cookie, 0));
                assertThat(RawHttp.readHead(s.getInputStream()).status()).isEqualTo(200);
                streams.add(s);
            }
            RawHttp.Reply refused = request(uri, "GET", "/api/events", host(uri), cookie, null);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("retry-after: (\\d+)")).isEqualTo(String.valueOf(EventStream.RETRY_AFTER_SECONDS));

            try (Socket other = new Socket(uri.getHost(), uri.getPort())) {
                other.setSoTimeout(10_000);
                other.getOutputStream().write(RawHttp.head("GET", "/api/events", host(uri),
                        Map.of("Cookie", ConsoleServer.SESSION_COOKIE + "=" + newSession()), 0));
                assertThat(RawHttp.readHead(other.getInputStream()).status()).as("another session still gets its stream")
                        .isEqualTo(200);
            }
        } finally {
            for (Socket s : streams) {
                s.close();
            }
        }
    }

    @Test
    void aStreamOpenedAgainByThePageResumesAfterTheLastEventItSaw() throws Exception {
        String session = newSession();
        for (String q : new String[] {"How many singers?", "How many concerts?"}) {
            assertThat(request(uri, "POST", "/api/ask", host(uri), post(session),
                    "{\"db\":\"concert_singer\",\"question\":\"" + q + "\"}").status()).isEqualTo(200);
        }
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(RawHttp.head("GET", "/api/events?after=1", host(uri),
                    Map.of("Cookie", ConsoleServer.SESSION_COOKIE + "=" + session), 0));
            InputStream in = s.getInputStream();
            assertThat(RawHttp.readHead(in).status()).isEqualTo(200);
            StringBuilder got = new StringBuilder();
            while (!got.toString().contains("How many concerts?")) {
                byte[] chunk = new byte[4096];
                int n = in.read(chunk);
                assertThat(n).as("the stream ended early: " + got).isPositive();
                got.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
            }
            assertThat(got.toString()).contains("id: 2").doesNotContain("id: 1\n").doesNotContain("How many singers?");
        }
    }

    @Test
    void runsBeyondTheirSlotsAre503AtOnceWithRetryAfter() throws Exception {
        String session = newSession();
        String slow = "{\"db\":\"concert_singer\",\"sql\":\"" + SLOW_SQL + "\"}";
        ExecutorService pool = Executors.newFixedThreadPool(ConsoleServer.RUN_SLOTS);
        try {
            List<Future<RawHttp.Reply>> running = new ArrayList<>();
            for (int i = 0; i < ConsoleServer.RUN_SLOTS; i++) {
                running.add(pool.submit(() -> request(uri, "POST", "/api/run", host(uri), post(session), slow)));
            }
            Thread.sleep(1_000);   // every slot taken by a statement that runs for its whole budget
            long started = System.nanoTime();
            RawHttp.Reply refused = request(uri, "POST", "/api/run", host(uri), post(session),
                    "{\"db\":\"concert_singer\",\"sql\":\"SELECT count(*) FROM singer\"}");
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("retry-after: (\\d+)")).isNotNull();
            assertThat((System.nanoTime() - started) / 1_000_000).as("refused at once, not queued").isLessThan(1_000);
            assertThat(databases(session).status()).as("the page is still served").isEqualTo(200);
            for (Future<RawHttp.Reply> r : running) {
                assertThat(r.get().status()).isEqualTo(200);
                assertThat(r.get().body()).as("stopped by its budget").contains("\"error\"");
            }
            assertThat(request(uri, "POST", "/api/run", host(uri), post(session),
                    "{\"db\":\"concert_singer\",\"sql\":\"SELECT count(*) FROM singer\"}").body()).contains("\"rows\":[[\"6\"]]");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void questionsWaitingForAnswersAreCappedPerSession() throws Exception {
        String session = newSession();
        String dialogue = null;
        for (int i = 0; i < Session.MAX_IN_FLIGHT; i++) {
            String body = dialogue == null ? "{\"db\":\"concert_singer\",\"question\":\"How many singers?\"}"
                    : "{\"dialogue_id\":\"" + dialogue + "\",\"question\":\"And now?\"}";
            RawHttp.Reply asked = request(uri, "POST", "/api/ask", host(uri), post(session), body);
            assertThat(asked.status()).as(asked.body()).isEqualTo(200);
            dialogue = asked.body().replaceAll(".*\"dialogue_id\":\"([^\"]+)\".*", "$1");
        }
        RawHttp.Reply refused = request(uri, "POST", "/api/ask", host(uri), post(session),
                "{\"db\":\"concert_singer\",\"question\":\"One more?\"}");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("retry-after: (\\d+)")).isNotNull();
        assertThat(request(uri, "POST", "/api/ask", host(uri), post(newSession()),
                "{\"db\":\"concert_singer\",\"question\":\"How many singers?\"}").status())
                .as("another session may still ask").isEqualTo(200);
    }

    @Test
    void aStateChangingRequestFromAnotherOriginIsRefused() throws Exception {
        String session = newSession();
        String run = "{\"db\":\"concert_singer\",\"sql\":\"SELECT count(*) FROM singer\"}";
        Map<String, String> foreign = new HashMap<>(post(session));
        foreign.put("Origin", "http://attacker.example");
        assertThat(request(uri, "POST", "/api/run", host(uri), foreign, run).status()).isEqualTo(403);
        foreign.put("Origin", "null");
        assertThat(request(uri, "POST", "/api/run", host(uri), foreign, run).status()).as("a sandboxed frame").isEqualTo(403);
        Map<String, String> crossSite = new HashMap<>(post(session));
        crossSite.put("Sec-Fetch-Site", "cross-site");
        assertThat(request(uri, "POST", "/api/run", host(uri), crossSite, run).status()).isEqualTo(403);
        Map<String, String> own = new HashMap<>(post(session));
        own.put("Origin", "http://" + host(uri));
        own.put("Sec-Fetch-Site", "same-origin");
        assertThat(request(uri, "POST", "/api/run", host(uri), own, run).status()).isEqualTo(200);
    }

    @Test
    void aPublicAddressWithoutATokenEndsWithOneLineAndExitCode2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        picocli.CommandLine line = ConsoleMain.commandLine();
        line.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        int code = line.execute("--bind", "0.0.0.0", "--port", "0", "-D", KafkaOptions.BOOTSTRAP_SERVERS.key() + "="
                + KAFKA.bootstrapServers());
        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(code).isEqualTo(2);
        assertThat(printed.strip()).startsWith("console: ").contains("give it a bearer token").doesNotContain("\n")
                .doesNotContain("Exception");
    }
}

package io.flowsql.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The console: the JDK's own HTTP server (no dependency, nothing to pin or patch beyond the JDK) serving a static page
 * and a small JSON API over the job's topics. A person picks a database, asks (produced to the questions topic),
 * follows the dialogue as its answers commit (server-sent events, per session), runs SQL read-only through the
 * job's guard and budgets, and adds business definitions (knowledge entries) for the job to use as evidence.
 */
public final class ConsoleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleServer.class);
    static final String SESSION_COOKIE = "flowsql_console_session";
    /** Server threads; event streams may hold at most {@link #MAX_STREAMS} of them, Run and Ask their slots' worth. */
    static final int THREADS = 32;
    static final int MAX_STREAMS = 16;
    /** SQL statements run at once ("Run", and corrected SQL checked before feedback is sent); more are refused 503. */
    static final int RUN_SLOTS = 4;
    /** Questions handed to the broker at once ("Ask" waits for every replica's acknowledgement); more are refused 503. */
    static final int ASK_SLOTS = 4;
    /**
     * Seconds the JDK server allows for a request (line, headers, body) and for a response, set only when the operator
     * has not: the backstop for a client that sends nothing at all. JVM-wide and read once, when the first JDK HTTP
     * server of the process is made; the body deadline in {@link HttpIo} does not depend on it.
     */
    static final String MAX_REQUEST_SECONDS = "30";
    static final int MAX_QUESTION_CHARS = 4_000;
    static final int MAX_SQL_CHARS = 100_000;
    private static final Map<String, String> STATIC = Map.of(
            "/", "index.html", "/static/console.css", "console.css", "/static/console.js", "console.js");

    private final ConsoleSettings settings;
    private final Sessions sessions = new Sessions(Duration.ofHours(24));
    private final Access access;
    private final EventStream streams = new EventStream(MAX_STREAMS);
    private final SecureRandom random = new SecureRandom();
    private final QuestionSender sender;
    private final FeedbackSender feedback;
    private final KnowledgeSender knowledge;
    private final AnswerFollower follower;
    private final SqlRunner sql;
    private final WorkSlots runs = new WorkSlots("SQL statements", RUN_SLOTS, 2);
    private final WorkSlots asks = new WorkSlots("questions", ASK_SLOTS, 2);
    private final HttpServer server;
    private final ExecutorService threads;

    private ConsoleServer(ConsoleSettings settings) throws IOException {
        this.settings = settings;
        this.access = settings.tenantTokens().isEmpty() ? new Access(settings.token(), settings.loopbackOnly())
                : new Access(settings.tenantTokens(), settings.loopbackOnly());
        this.sender = new QuestionSender(settings.kafka(), settings.questionsTopic());
        this.feedback = settings.feedback() ? new FeedbackSender(settings.kafka(), settings.feedbackTopic()) : null;
        this.knowledge = settings.knowledge() ? new KnowledgeSender(settings.kafka(), settings.knowledgeTopic()) : null;
        this.follower = new AnswerFollower(settings.kafka(), settings.answersTopic(), settings.deadLettersTopic(), sessions);
        this.sql = new SqlRunner(settings.databases(), settings.sql(), settings.access());
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", MAX_REQUEST_SECONDS);
        }
        this.server = HttpServer.create(settings.address(), 64);
        this.threads = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "console-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", guarded(this::page));
        server.createContext("/api/databases", guarded(this::databases));
        server.createContext("/api/ask", guarded(this::ask));
        server.createContext("/api/run", guarded(this::run));
        server.createContext("/api/events", guarded(this::events));
        server.createContext("/api/feedback", guarded(this::feedback));
        server.createContext("/api/knowledge", guarded(this::addKnowledge));
        server.createContext("/api/health", guarded(this::health));
    }

    /** Starts following the answers (from now on), then serves; returns the running console. */
    public static ConsoleServer start(ConsoleSettings settings) throws IOException, InterruptedException {
        ConsoleServer console = new ConsoleServer(settings);
        try {
            console.follower.start(Duration.ofSeconds(60));
        } catch (RuntimeException | InterruptedException e) {
            console.close();
            throw e;
        }
        console.server.start();
        LOG.info("console at {} over {} (questions {}, answers {})", console.url(), settings.kafka().bootstrapServers(),
                settings.questionsTopic(), settings.answersTopic());
        return console;
    }

    /** The page's address (loopback name when bound to a wildcard or loopback address). */
    public String url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress() || a.getAddress().isLoopbackAddress()
                ? "127.0.0.1" : a.getAddress().getHostAddress();
        return "http://" + host + ":" + a.getPort() + "/";
    }

    private interface Handler {
        /** @param tenant the caller's tenant, as its token said (null: none) */
        void handle(HttpExchange exchange, String tenant) throws Exception;
    }

    private HttpHandler guarded(Handler handler) {
        return exchange -> {
            try {
                HttpIo.readBody(exchange);
                String tenant = access.check(exchange);
                handler.handle(exchange, tenant);
            } catch (HttpIo.Refused e) {
                if (e.retryAfterSeconds > 0) {
                    exchange.getResponseHeaders().set("Retry-After", Integer.toString(e.retryAfterSeconds));
                }
                HttpIo.sendError(exchange, e.status, e.getMessage());
            } catch (IOException e) {
                LOG.debug("client went away: {}", e.toString());
            } catch (Exception e) {
                LOG.warn("request {} failed", exchange.getRequestURI().getPath(), e);
                HttpIo.sendError(exchange, 500, "internal error: " + e.getClass().getSimpleName());
            } finally {
                exchange.close();
            }
        };
    }

    /** The request's session, when it is one the caller's tenant opened (another tenant's session id is no session). */
    private Session session(HttpExchange exchange, String tenant) {
        return HttpIo.cookie(exchange, SESSION_COOKIE).flatMap(sessions::find)
                .filter(s -> java.util.Objects.equals(s.tenant(), tenant))
                .orElseThrow(() -> new HttpIo.Refused(401, "no console session: reload the page"));
    }

    private static void method(HttpExchange exchange, String method) {
        if (!method.equals(exchange.getRequestMethod())) {
            throw new HttpIo.Refused(405, "use " + method);
        }
    }

    private void page(HttpExchange exchange, String tenant) throws IOException {
        method(exchange, "GET");
        String path = exchange.getRequestURI().getPath();
        String resource = STATIC.get(path);
        if (resource == null) {
            throw new HttpIo.Refused(404, "no such page");
        }
        if (path.equals("/")) {
            String token = access.tokenInQuery(exchange.getRequestURI());
            if (token != null) {
                HttpIo.setCookie(exchange, Access.TOKEN_COOKIE, token);
                exchange.getResponseHeaders().set("Location", "/");
                HttpIo.send(exchange, 303, "text/plain", new byte[0]);
                return;
            }
            if (HttpIo.cookie(exchange, SESSION_COOKIE).flatMap(sessions::find)
                    .filter(s -> java.util.Objects.equals(s.tenant(), tenant)).isEmpty()) {
                HttpIo.setCookie(exchange, SESSION_COOKIE, sessions.create(tenant).id());
            }
        }
        byte[] body;
        try (InputStream in = ConsoleServer.class.getResourceAsStream("/console/" + resource)) {
            body = in.readAllBytes();
        }
        String type = resource.endsWith(".html") ? "text/html" : resource.endsWith(".css") ? "text/css" : "text/javascript";
        HttpIo.send(exchange, 200, type + "; charset=utf-8", body);
    }

    private void databases(HttpExchange exchange, String tenant) throws IOException {
        method(exchange, "GET");
        session(exchange, tenant);
        ArrayNode ids = EventJson.mapper().createArrayNode();
        settings.databases().sqlite().databaseIds().stream().filter(id -> mayAsk(tenant, id)).forEach(ids::add);
        settings.databases().declared().stream().filter(d -> mayAsk(tenant, d.id())).forEach(d -> ids.add(d.id()));
        ObjectNode body = EventJson.mapper().createObjectNode();
        body.set("databases", ids);
        body.put("feedback", feedback != null);
        body.put("knowledge", knowledge != null);
        HttpIo.sendJson(exchange, 200, body);
    }

    /** Body {@code {"db": ..., "question": ..., "dialogue_id": <one of this session's, for a follow-up>}}. */
    private void ask(HttpExchange exchange, String tenant) throws Exception {
        method(exchange, "POST");
        Session session = session(exchange, tenant);
        JsonNode body = HttpIo.readJson(exchange);
        String question = HttpIo.text(body, "question", MAX_QUESTION_CHARS);
        String dialogueId;
        String db;
        if (body.hasNonNull("dialogue_id")) {
            dialogueId = body.get("dialogue_id").asText();
            db = session.databaseOf(dialogueId);
            if (db == null || !mayAsk(tenant, db)) {
                throw new HttpIo.Refused(404, "no dialogue " + dialogueId + " in this session");
            }
        } else {
            db = HttpIo.text(body, "db", 200);
            if (!settings.databases().contains(db) || !mayAsk(tenant, db)) {
                throw new HttpIo.Refused(400, "no database " + db + " in the job's catalog");
            }
            dialogueId = "console-" + newId();
        }
        String requestId = "console-" + newId();
        QuestionSender.Prepared prepared = QuestionSender.prepare(requestId, dialogueId, db, tenant,
                question);
        if (!prepared.check().isValid()) {
            throw new HttpIo.Refused(400, "not a valid question: " + prepared.check().reason());
        }
        if (session.databaseOf(dialogueId) == null) {
            sessions.startDialogue(session, dialogueId, db);   // before sending: the answer may come at once
        }
        if (!session.startQuestion(requestId)) {
            throw new HttpIo.Refused(429, "this session has " + Session.MAX_IN_FLIGHT
                    + " questions waiting for their answers; ask again once one is answered", 5);
        }
        try {
            asks.run(() -> {
                sender.send(prepared);
                return null;
            });
        } catch (Exception e) {
            session.questionDone(requestId);
            throw e;
        }
        ObjectNode asked = EventJson.mapper().createObjectNode();
        asked.put("request_id", requestId).put("dialogue_id", dialogueId).put("db_id", db).put("question", question)
                .put("asked_at", Instant.now().toString());
        session.publish("question", asked.toString());
        HttpIo.sendJson(exchange, 200, asked);
    }

    /** Body {@code {"db": ..., "sql": ...}}: SQL a person typed, as untrusted as a model's. */
    private void run(HttpExchange exchange, String tenant) throws Exception {
        method(exchange, "POST");
        session(exchange, tenant);
        JsonNode body = HttpIo.readJson(exchange);
        String db = HttpIo.text(body, "db", 200);
        String statement = HttpIo.text(body, "sql", MAX_SQL_CHARS);
        HttpIo.sendJson(exchange, 200, runs.run(() -> sql.run(db, tenant, statement)));
    }

    /** The answer follower's health: 200 while answers reach the page as they commit, 503 when behind, cut off or down. */
    private void health(HttpExchange exchange, String tenant) throws IOException {
        method(exchange, "GET");
        FollowerHealth answers = follower.health();
        ObjectNode body = EventJson.mapper().createObjectNode();
        body.put("status", answers.ok() ? "ok" : "degraded");
        body.set("answers", answers.json());
        HttpIo.sendJson(exchange, answers.ok() ? 200 : 503, body);
    }

    /**
     * Body {@code {"request_id": <an answer this session received>, "verdict": "correct"|"wrong", "corrected_sql": ...}}.
     * A corrected SQL is run first through the guard and budgets on the answer's database: one that fails is refused
     * here with its error (the job would check it again and make it a dead letter).
     */
    private void feedback(HttpExchange exchange, String tenant) throws Exception {
        method(exchange, "POST");
        Session session = session(exchange, tenant);
        if (feedback == null) {
            throw new HttpIo.Refused(404, "the job learns from no feedback topic (kafka.topic.feedback is blank)");
        }
        JsonNode body = HttpIo.readJson(exchange);
        String requestId = HttpIo.text(body, "request_id", 200);
        String verdict = HttpIo.text(body, "verdict", 20);
        String db = session.databaseOfAnswer(requestId);
        if (db == null || !mayAsk(tenant, db)) {
            throw new HttpIo.Refused(404, "no answer " + requestId + " in this session");
        }
        if (!verdict.equals("correct") && !verdict.equals("wrong")) {
            throw new HttpIo.Refused(400, "verdict is correct or wrong");
        }
        String corrected = body.hasNonNull("corrected_sql") ? HttpIo.text(body, "corrected_sql", 8_000) : null;
        if (corrected != null) {
            if (verdict.equals("correct")) {
                throw new HttpIo.Refused(400, "a corrected SQL goes with the verdict wrong");
            }
            JsonNode check = runs.run(() -> sql.run(db, tenant, corrected));
            if (check.has("error")) {
                throw new HttpIo.Refused(400, "the corrected SQL does not run: " + check.get("error").path("kind").asText()
                        + ": " + check.get("error").path("message").asText());
            }
        }
        FeedbackEvent event = feedback.verdict(requestId, verdict.equals("correct"), corrected);
        event.tenant = tenant;
        feedback.send(event);
        ObjectNode sent = EventJson.mapper().createObjectNode();
        sent.put("feedback_id", event.feedbackId).put("request_id", requestId).put("verdict", event.verdict);
        HttpIo.sendJson(exchange, 200, sent);
    }

    /**
     * Body {@code {"db": ..., "term": ..., "definition": ...}}: a business definition for a database the caller may ask,
     * sent to the knowledge topic the job reads, for the caller's tenant (its token's; none without tenants).
     */
    private void addKnowledge(HttpExchange exchange, String tenant) throws Exception {
        method(exchange, "POST");
        session(exchange, tenant);
        if (knowledge == null) {
            throw new HttpIo.Refused(404, "the job reads no knowledge topic (kafka.topic.knowledge is blank)");
        }
        JsonNode body = HttpIo.readJson(exchange);
        String db = HttpIo.text(body, "db", 200);
        if (!settings.databases().contains(db) || !mayAsk(tenant, db)) {
            throw new HttpIo.Refused(400, "no database " + db + " in the job's catalog");
        }
        ObjectNode record = knowledge.addition(db, HttpIo.text(body, "term", 200), HttpIo.text(body, "definition", 2_000), tenant);
        knowledge.send(record);
        ObjectNode sent = EventJson.mapper().createObjectNode();
        sent.put("knowledge_id", record.get("knowledge_id").asText()).put("db_id", db).put("term", record.get("term").asText());
        HttpIo.sendJson(exchange, 200, sent);
    }

    private void events(HttpExchange exchange, String tenant) throws IOException {
        method(exchange, "GET");
        streams.serve(exchange, session(exchange, tenant));
    }

    /** Whether the caller's tenant may ask {@code dbId} (always, without access policies). */
    private boolean mayAsk(String tenant, String dbId) {
        return settings.access().allowsDatabase(tenant, dbId);
    }

    private String newId() {
        byte[] bytes = new byte[8];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close() throws InterruptedException {
        server.stop(0);
        threads.shutdownNow();
        threads.awaitTermination(5, TimeUnit.SECONDS);
        follower.close();
        sender.close();
        if (feedback != null) {
            feedback.close();
        }
        if (knowledge != null) {
            knowledge.close();
        }
        sql.close();
    }
}

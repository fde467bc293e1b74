package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.FreePorts;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TcpFaultProxy;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The components the job depends on fail under it while questions flow (issue 42): PostgreSQL is stopped for
 * {@value #PG_OUTAGE_SECONDS} s and started again on the same port and data directory; then every pooled connection is
 * dropped ({@code pg_terminate_backend}, nothing else changes); then the model server (the simulator in oracle mode) is
 * stopped for {@value #MODEL_OUTAGE_SECONDS} s and started again on the same port; then the network to it (a
 * {@link TcpFaultProxy} the job's LLM URL points at) stalls for {@value #STALL_SECONDS} s, longer than the
 * {@value #REQUEST_TIMEOUT_SECONDS} s request time-out, and then is slow for a while.
 * <p>Checked: every question is answered exactly once or dead-lettered once (read_committed), each dialogue's answers
 * come in the order its turns were sent, the first new successful answer after each fault comes within the phase's
 * stated bound (printed), and afterwards the pools and the breaker are back to normal: the same questions as before
 * the faults get the same outcomes.</p>
 * <p>Shortened for the test: the outages (30 s and 60 s in the issue) and {@code llm.request-timeout} (3 s instead of
 * 120 s, so a stalled call gives up within the stall).</p>
 */
class ComponentRestartsITCase {
    private static final int PG_OUTAGE_SECONDS = 12;
    /** Long enough for the retry backoff (0.5 s doubling) to reach its 5 s cap: 0.5 + 1 + 2 + 4 s, then 5 s. */
    private static final int MODEL_OUTAGE_SECONDS = 10;
    private static final int STALL_SECONDS = 8;
    private static final int REQUEST_TIMEOUT_SECONDS = 3;
    private static final int BASELINE = 16;
    private static final int DIALOGUES = 16;
    /** PostgreSQL back: the breaker stays open up to JdbcPools.UNAVAILABLE_MILLIS (10 s) after the last failed connect. */
    private static final Duration PG_RESTART_BOUND = Duration.ofSeconds(25);
    private static final Duration CONNECTIONS_DROPPED_BOUND = Duration.ofSeconds(10);
    /** The model server back: the retry backoff is at most 5 s, plus a checkpoint (1 s) and the question's stages. */
    private static final Duration MODEL_RESTART_BOUND = Duration.ofSeconds(20);
    private static final Duration STALL_BOUND = Duration.ofSeconds(20);
    /** A stalled call gives up after the request time-out; the rest is slack for a loaded machine. */
    private static final Duration GIVE_UP_WITHIN = Duration.ofSeconds(REQUEST_TIMEOUT_SECONDS + 3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void postgresAndModelServerRestartsLoseAndDoubleNothing() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path work = Files.createDirectories(Path.of("target")).toAbsolutePath();
        work = Files.createTempDirectory(work, "component-restarts-");
        Path pgData = work.resolve("pgdata");
        int pgPort = FreePorts.next();
        Path secret = work.resolve("reader.secret");
        Files.writeString(secret, "reader-password");
        List<QuestionEvent> pool = SpiderQuestions.of(sharedData, "concert_singer", 40);

        EmbeddedPostgres pg = startPostgres(pgData, pgPort);
        try (OracleLlm llm = OracleLlm.startOn(sharedData, FreePorts.next());
                TcpFaultProxy proxy = TcpFaultProxy.start(llm.port())) {
            try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
                s.execute("CREATE ROLE flowsql_reader LOGIN PASSWORD 'reader-password'");
                new SqliteToServerLoader(DatabaseEngine.POSTGRESQL).load("concert_singer", sharedData.resolve(
                        "spider/database/concert_singer/concert_singer.sqlite"), admin, "concert_singer");
                s.execute("GRANT USAGE ON SCHEMA concert_singer TO flowsql_reader");
                s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA concert_singer TO flowsql_reader");
            }
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            Map<String, String> options = new LinkedHashMap<>();
            options.put(JobOptions.LLM_MODEL.key(), "test-model");
            options.put(JobOptions.LLM_TIMEOUT.key(), REQUEST_TIMEOUT_SECONDS + "s");
            options.put("databases.concert_singer.url", "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres");
            options.put("databases.concert_singer.user", "flowsql_reader");
            options.put("databases.concert_singer.password-file", secret.toString());
            options.put("databases.concert_singer.schemas", "concert_singer");
            JobConfig config = topics.jobConfig(sharedData, "http://127.0.0.1:" + proxy.port() + "/v1", options);

            Sent sent = new Sent();
            try (JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure().start("component-restarts");
                    AnswerWatch answers = AnswerWatch.start(KAFKA.bootstrapServers(), JobTopics.ANSWERS)) {
                // before any fault: the outcome of each baseline question
                List<QuestionEvent> before = batch(pool, "before", sent);
                topics.sendQuestions(before);
                Map<String, String> baseline = outcomes(answers.await(before, Duration.ofSeconds(120)), before);
                assertThat(baseline.values()).as("the oracle answers most questions from PostgreSQL: " + baseline)
                        .filteredOn(o -> o.startsWith("answered")).hasSizeGreaterThan(BASELINE / 2);

                List<String> report = new ArrayList<>();
                long notGivenUp;
                try (Feeder feeder = Feeder.start(topics, pool, sent)) {
                    Thread.sleep(2_000);
                    // 1. PostgreSQL stopped and started again on the same port and data directory
                    pg.close();
                    Thread.sleep(PG_OUTAGE_SECONDS * 1_000L);
                    pg = startPostgres(pgData, pgPort);
                    report.add(recovered("postgresql stopped " + PG_OUTAGE_SECONDS + " s", answers, System.nanoTime(),
                            PG_RESTART_BOUND, AnswerWatch::fromDatabase));
                    // 2. a restart that changes nothing but drops every pooled connection
                    Thread.sleep(1_000);
                    int dropped = terminateOtherBackends(pg);
                    assertThat(dropped).as("the job's pool held connections to drop").isPositive();
                    report.add(recovered("postgresql dropped " + dropped + " connections", answers, System.nanoTime(),
                            CONNECTIONS_DROPPED_BOUND, AnswerWatch::fromDatabase));
                    // 3. the model server stopped and started again on the same port
                    Thread.sleep(1_000);
                    llm.stop();
                    Thread.sleep(MODEL_OUTAGE_SECONDS * 1_000L);
                    llm.restart();
                    report.add(recovered("model server stopped " + MODEL_OUTAGE_SECONDS + " s", answers, System.nanoTime(),
                            MODEL_RESTART_BOUND, AnswerWatch::fromDatabase));
                    // 4. the network to the model server stalls, then is slow
                    Thread.sleep(1_000);
                    proxy.stall();
                    Thread.sleep(STALL_SECONDS * 1_000L);
                    notGivenUp = proxy.heldLongerThan(GIVE_UP_WITHIN);
                    proxy.pass();
                    proxy.delay(Duration.ofMillis(100));
                    report.add(recovered("model network stalled " + STALL_SECONDS + " s, then 100 ms per chunk", answers,
                            System.nanoTime(), STALL_BOUND, AnswerWatch::fromDatabase));
                    proxy.pass();
                }
                report.forEach(System.out::println);
                System.out.printf("stall: %d client chunks held, %d connections given up by the client while stalled, "
                        + "%d still open with a call held longer than %d s%n", proxy.heldFromClients(),
                        proxy.closedWhileStalled(), notGivenUp, GIVE_UP_WITHIN.toSeconds());
                assertThat(proxy.heldFromClients()).as("calls met the stall").isPositive();
                // a timed-out call closes its connection (it used to stay open until the stall ended: docs/FAULTS.md)
                assertThat(proxy.closedWhileStalled()).as("timed-out calls closed their connections").isPositive();
                assertThat(notGivenUp).as("connections whose call outlived the request time-out in the stall").isZero();

                // after the faults: the same questions get the same outcomes (pools and breaker back to normal)
                List<QuestionEvent> after = batch(pool, "after", sent);
                topics.sendQuestions(after);
                Map<String, String> afterwards = outcomes(answers.await(after, Duration.ofSeconds(60)), after);
                assertThat(afterwards).as("outcomes after the faults, question by question").isEqualTo(baseline);

                // every question sent: exactly one answer or one dead letter, none doubled, dialogue order kept
                List<AnswerEvent> all = answers.await(sent.all(), Duration.ofSeconds(90));
                Thread.sleep(3_000);
                all = answers.snapshot();
                List<ConsumerRecord<byte[], byte[]>> deadLetters = topics.committed(JobTopics.DEAD_LETTERS, 0,
                        Duration.ofSeconds(1), Duration.ofSeconds(1));
                Map<String, Long> perRequest = all.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                List<String> dead = deadLetters.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
                List<String> lost = sent.all().stream().map(q -> q.requestId)
                        .filter(id -> !perRequest.containsKey(id) && dead.stream().noneMatch(d -> d.contains(id))).toList();
                List<String> doubled = perRequest.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
                System.out.printf("component restarts: sent=%d answered=%d dead_lettered=%d lost=%d doubled=%d statuses=%s%n",
                        sent.all().size(), perRequest.size(), dead.size(), lost.size(), doubled.size(), statuses(all));
                all.stream().filter(a -> !"answered".equals(a.status)).collect(Collectors.groupingBy(a -> a.errorKind + ": "
                        + String.valueOf(a.error).substring(0, Math.min(120, String.valueOf(a.error).length())), TreeMap::new,
                        Collectors.counting())).forEach((e, n) -> System.out.println("  " + n + " x " + e));
                assertThat(all).as("a dropped or lost connection is never blamed on the SQL (the refiner would 'repair' good SQL)")
                        .noneMatch(a -> "sql_error".equals(a.errorKind) && a.error != null
                                && (a.error.contains("terminating connection") || a.error.contains("I/O error")
                                        || a.error.contains("connection has been closed")));
                assertThat(lost).as("lost").isEmpty();
                assertThat(doubled).as("doubled").isEmpty();
                assertThat(all).as("no answer to a question never sent").allMatch(a -> sent.ids().contains(a.requestId));
                for (Map.Entry<String, List<String>> d : sent.byDialogue().entrySet()) {
                    List<String> answered = all.stream().filter(a -> d.getKey().equals(a.dialogueId)).map(a -> a.requestId).toList();
                    assertThat(answered).as("answers of dialogue " + d.getKey() + " in turn order").isEqualTo(d.getValue());
                }
                int retries = all.stream().flatMap(a -> a.trace.stream()).mapToInt(t -> t.retries).sum();
                assertThat(retries).as("the model outage and the stall show as retries in the traces").isPositive();
            }
        } finally {
            pg.close();
        }
    }

    private static EmbeddedPostgres startPostgres(Path data, int port) throws Exception {
        return EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(120)).setDataDirectory(data)
                .setCleanDataDirectory(false).setPort(port).start();
    }

    /** Terminates every client backend but this one (the job's pooled connections); returns how many. */
    private static int terminateOtherBackends(EmbeddedPostgres pg) throws Exception {
        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                        + "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'")) {
            r.next();
            return r.getInt(1);
        }
    }

    /** Waits for the first answer committed after {@code faultEnd} that passes {@code healthy}; checks the bound. */
    private static String recovered(String fault, AnswerWatch answers, long faultEnd, Duration bound,
            Predicate<AnswerEvent> healthy) throws InterruptedException {
        long deadline = faultEnd + bound.toNanos() + Duration.ofSeconds(30).toNanos();
        Long firstAt = null;
        while (firstAt == null && System.nanoTime() < deadline) {
            firstAt = answers.firstAfter(faultEnd, healthy);
            Thread.sleep(50);
        }
        assertThat(firstAt).as(fault + ": a new successful answer after the fault ended").isNotNull();
        long millis = (firstAt - faultEnd) / 1_000_000;
        String line = String.format("fault %s: first new answer %d ms after the fault ended (bound %d ms)", fault, millis,
                bound.toMillis());
        System.out.println(line);
        assertThat(millis).as(line).isLessThanOrEqualTo(bound.toMillis());
        return line;
    }

    private static List<QuestionEvent> batch(List<QuestionEvent> pool, String name, Sent sent) {
        List<QuestionEvent> out = new ArrayList<>();
        for (int i = 0; i < BASELINE; i++) {
            out.add(sent.add(question(name + "-" + i, name + "-dialogue-" + i, pool.get(i).question)));
        }
        return out;
    }

    private static QuestionEvent question(String requestId, String dialogueId, String text) {
        QuestionEvent q = new QuestionEvent(requestId, dialogueId, "concert_singer", text);
        q.options = new QuestionOptions();
        q.options.strategy = "mag-sql";
        return q;
    }

    /** Outcome per baseline position: the status, and for an answer its rows. */
    private static Map<String, String> outcomes(List<AnswerEvent> answers, List<QuestionEvent> batch) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < batch.size(); i++) {
            String id = batch.get(i).requestId;
            AnswerEvent a = answers.stream().filter(x -> id.equals(x.requestId)).findFirst().orElseThrow();
            out.put(String.format("%02d", i), a.status + ("answered".equals(a.status) && a.result != null ? " " + a.result.rows : ""));
        }
        return out;
    }

    private static Map<String, Long> statuses(List<AnswerEvent> answers) {
        return answers.stream().collect(Collectors.groupingBy(a -> a.status + (a.errorKind == null ? "" : "/" + a.errorKind),
                TreeMap::new, Collectors.counting()));
    }

    /** Every question sent, in order, by dialogue. */
    private static final class Sent {
        private final List<QuestionEvent> all = new CopyOnWriteArrayList<>();
        private final Map<String, List<String>> byDialogue = new ConcurrentHashMap<>();

        QuestionEvent add(QuestionEvent q) {
            all.add(q);
            byDialogue.computeIfAbsent(q.dialogueId, d -> new CopyOnWriteArrayList<>()).add(q.requestId);
            return q;
        }

        List<QuestionEvent> all() {
            return List.copyOf(all);
        }

        java.util.Set<String> ids() {
            return all.stream().map(q -> q.requestId).collect(Collectors.toSet());
        }

        Map<String, List<String>> byDialogue() {
            return byDialogue;
        }
    }

    /** Sends a question about every 400 ms, turns of {@value #DIALOGUES} dialogues in rotation, until closed. */
    private static final class Feeder implements AutoCloseable {
        private final Thread thread;
        private volatile boolean stop;

        private Feeder(JobTopics topics, List<QuestionEvent> pool, Sent sent) {
            AtomicInteger n = new AtomicInteger();
            this.thread = new Thread(() -> {
                while (!stop) {
                    int i = n.getAndIncrement();
                    topics.sendQuestions(List.of(sent.add(question("flow-" + i, "flow-dialogue-" + (i % DIALOGUES),
                            pool.get(i % pool.size()).question))));
                    try {
                        Thread.sleep(400);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "question-feeder");
        }

        static Feeder start(JobTopics topics, List<QuestionEvent> pool, Sent sent) {
            Feeder f = new Feeder(topics, pool, sent);
            f.thread.start();
            return f;
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join();
        }
    }

    /** Reads the committed answers continuously (read_committed) and notes when each arrived. */
    private static final class AnswerWatch implements AutoCloseable {
        private record Arrival(AnswerEvent answer, long atNanos) {}

        private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile boolean stop;

        private AnswerWatch(String bootstrapServers, String topic) {
            this.thread = new Thread(() -> {
                try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
                    int seen = 0;
                    while (!stop) {
                        List<ConsumerRecord<byte[], byte[]>> all = reader.drain(Duration.ofMillis(100));
                        long now = System.nanoTime();
                        for (ConsumerRecord<byte[], byte[]> r : all.subList(seen, all.size())) {
                            arrivals.add(new Arrival(EventJson.parseAnswer(r.value()), now));
                        }
                        seen = all.size();
                    }
                }
            }, "answer-watch");
        }

        static AnswerWatch start(String bootstrapServers, String topic) {
            AnswerWatch w = new AnswerWatch(bootstrapServers, topic);
            w.thread.start();
            return w;
        }

        /** An answer whose SQL ran on the database and returned rows. */
        static boolean fromDatabase(AnswerEvent a) {
            return "answered".equals(a.status) && a.result != null;
        }

        Long firstAfter(long nanos, Predicate<AnswerEvent> healthy) {
            return arrivals.stream().filter(a -> a.atNanos() - nanos > 0 && healthy.test(a.answer())).map(Arrival::atNanos)
                    .findFirst().orElse(null);
        }

        List<AnswerEvent> snapshot() {
            return arrivals.stream().map(Arrival::answer).toList();
        }

        /** Waits until every question of {@code batch} has an answer (or the time is up); returns all answers so far. */
        List<AnswerEvent> await(List<QuestionEvent> batch, Duration within) throws InterruptedException {
            long deadline = System.nanoTime() + within.toNanos();
            java.util.Set<String> wanted = batch.stream().map(q -> q.requestId).collect(Collectors.toSet());
            while (System.nanoTime() < deadline) {
                if (snapshot().stream().map(a -> a.requestId).collect(Collectors.toSet()).containsAll(wanted)) {
                    break;
                }
                Thread.sleep(100);
            }
            return snapshot();
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join();
        }
    }
}

package io.flowsql.benchmarks.learning;

import io.flowsql.access.DataDoors;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.QuestionMasker;
import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The learning loop measured (issue 27), everything in one JVM (broker, simulator in oracle mode over HTTP, the job on
 * a local MiniCluster at parallelism 2, opensearch preset): the gold SQL of half the Spider dev databases' questions is
 * streamed as verified pairs while probe questions ask for each one until an answer's trace names it (event → first
 * use); then the same questions and the other half's are asked again (retrieval quality before/after as the SQL-shape
 * overlap of the top example, and leaks across databases); then 1,000 more feedback events (state size and checkpoint
 * time). Small by default; {@code deploy/bench.sh live-learning}.
 */
@Command(name = "live-learning", mixinStandardHelpOptions = true, description = "Measure the feedback loop (issue 27).")
public final class LiveLearningBenchmark implements Callable<Integer> {
    @Option(names = "--shared-data", defaultValue = "../shared/data")
    Path sharedData;
    @Option(names = "--databases", defaultValue = "4", description = "Databases per half (default ${DEFAULT-VALUE}).")
    int databases;
    @Option(names = "--per-db", defaultValue = "6", description = "Questions per database (default ${DEFAULT-VALUE}).")
    int perDb;
    @Option(names = "--latency-ms", defaultValue = "20", description = "Simulated LLM latency per call (default ${DEFAULT-VALUE}).")
    long latencyMillis;
    @Option(names = "--probe-ms", defaultValue = "200", description = "A probe question per pending feedback this often (default ${DEFAULT-VALUE}).")
    long probeMillis;
    @Option(names = "--state-events", defaultValue = "1000", description = "Feedback events for the state-size figure (default ${DEFAULT-VALUE}; 0 = skip).")
    int stateEvents;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LiveLearningBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        SpiderPairs spider = SpiderPairs.load(sharedData);
        Map<String, List<SpiderPairs.Item>> taught = spider.half(true, databases, perDb);
        Map<String, List<SpiderPairs.Item>> other = spider.half(false, databases, perDb);
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-live-learning"));
             SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(latencyMillis)).recordRequests(false).responders(AgentResponders.all())
                     .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build())) {
            broker.createTopics(new TopicSpec("questions", 2), new TopicSpec("answers", 2), new TopicSpec("dead-letters", 1),
                    new TopicSpec("feedback", 1));
            JobConfig config = JobConfig.of(Map.of(JobOptions.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers(),
                    JobOptions.SHARED_DATA.key(), sharedData.toString(), JobOptions.LLM_BASE_URL.key(), llm.baseUrl(),
                    JobOptions.PARALLELISM.key(), "2", JobOptions.STRATEGY.key(), "opensearch"));
            int restPort = freePort();
            Configuration flink = new Configuration();
            flink.set(RestOptions.PORT, restPort);
            flink.set(RestOptions.BIND_PORT, Integer.toString(restPort));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(flink);
            FlowSqlJob.configure(env, config);
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
            JobClient job = env.executeAsync("flowsql-live-learning");
            System.out.printf(Locale.ROOT, "live learning: %d + %d Spider dev databases, %d questions each at most, LLM %d ms, "
                            + "probe every %d ms, parallelism 2, checkpoints %s, %d cores%n", taught.size(), other.size(), perDb,
                    latencyMillis, probeMillis, config.get(JobOptions.CHECKPOINT_INTERVAL), Runtime.getRuntime().availableProcessors());
            try (Session session = new Session(broker.bootstrapServers(), "questions", "answers", "feedback")) {
                session.await(List.of(session.ask(first(taught).dbId(), first(taught).question())), Duration.ofMinutes(2));
                List<AnswerEvent> before = askAll(session, taught);
                Map<String, SpiderPairs.Item> byId = teach(session, taught);
                List<AnswerEvent> again = askAll(session, taught);
                List<AnswerEvent> others = askAll(session, other);
                quality(spider, taught, before, again, byId);
                leaks(again, others, byId);
                if (stateEvents > 0) {
                    stateCost(session, taught, new CheckpointStats(restPort, job.getJobID().toString()));
                }
            } finally {
                job.cancel().get();
            }
        }
        return 0;
    }

    /** Streams each pair, probing with its question reworded every {@code probeMillis} until an answer names it. */
    private Map<String, SpiderPairs.Item> teach(Session session, Map<String, List<SpiderPairs.Item>> taught) {
        Map<String, SpiderPairs.Item> byId = new LinkedHashMap<>();
        taught.values().forEach(items -> items.forEach(i -> byId.put(i.id(), i)));
        Map<String, Long> sentAt = new HashMap<>();
        Map<String, Long> nextProbe = new HashMap<>();
        Map<String, String> probeOf = new HashMap<>();
        Map<String, Long> probeSentAt = new HashMap<>();
        List<Long> toQuestion = new ArrayList<>();
        List<Long> toAnswer = new ArrayList<>();
        List<Long> probeLatency = new ArrayList<>();
        List<String> queue = new ArrayList<>(byId.keySet());
        long deadline = System.currentTimeMillis() + Duration.ofMinutes(5).toMillis();
        long nextFeedback = 0;
        while ((!queue.isEmpty() || !sentAt.isEmpty()) && System.currentTimeMillis() < deadline) {
            long now = System.currentTimeMillis();
            if (!queue.isEmpty() && now >= nextFeedback) {
                SpiderPairs.Item item = byId.get(queue.remove(0));
                session.send(FeedbackEvent.pair(item.id(), item.dbId(), item.question(), item.sql()));
                sentAt.put(item.id(), now);
                nextProbe.put(item.id(), now);
                nextFeedback = now + 2 * probeMillis;
            }
            for (Map.Entry<String, Long> p : nextProbe.entrySet()) {
                if (p.getValue() <= now) {
                    SpiderPairs.Item item = byId.get(p.getKey());
                    String id = session.ask(item.dbId(), item.question() + " Please.");
                    probeOf.put(id, item.id());
                    probeSentAt.put(id, now);
                    p.setValue(now + probeMillis);
                }
            }
            for (AnswerEvent a : session.poll(Duration.ofMillis(20))) {
                String target = probeOf.get(a.requestId);
                if (target != null) {
                    probeLatency.add(System.currentTimeMillis() - probeSentAt.get(a.requestId));
                }
                if (target != null && sentAt.containsKey(target) && Session.used(a).contains(target)) {
                    toQuestion.add(probeSentAt.get(a.requestId) - sentAt.get(target));
                    toAnswer.add(System.currentTimeMillis() - sentAt.remove(target));
                    nextProbe.remove(target);
                }
            }
        }
        System.out.printf(Locale.ROOT, "event → first use, %d of %d pairs used (a pair is sent every %d ms):%n", toQuestion.size(),
                byId.size(), 2 * probeMillis);
        System.out.printf(Locale.ROOT, "  to the first question sent that used it: p50 %d ms, p95 %d ms (resolution %d ms; goal <= 2000)%n",
                pct(toQuestion, 50), pct(toQuestion, 95), probeMillis);
        System.out.printf(Locale.ROOT, "  to the first committed answer that used it: p50 %d ms, p95 %d ms (includes that answer's own latency: "
                + "a probe's answer took p50 %d ms, p95 %d ms)%n", pct(toAnswer, 50), pct(toAnswer, 95), pct(probeLatency, 50), pct(probeLatency, 95));
        return byId;
    }

    private void quality(SpiderPairs spider, Map<String, List<SpiderPairs.Item>> taught,
                         List<AnswerEvent> before, List<AnswerEvent> again, Map<String, SpiderPairs.Item> byId) {
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(new DatabaseLocator(List.of(sharedData.resolve("spider/database")), List.of()));
        List<String[]> fileItems = new ArrayList<>();
        spider.byDb().forEach((db, items) -> {
            if (!taught.containsKey(db)) {
                items.forEach(i -> fileItems.add(new String[] {i.id(), i.dbId(), i.question(), i.sql()}));
            }
        });
        ExampleLibrary file = new ExampleLibrary(ExampleLibrary.build(fileItems, catalog));
        DataDoors doors = DataDoors.open(null, catalog);
        double fileShape = 0;
        double bothShape = 0;
        double liveShape = 0;
        int withLive = 0;
        int n = 0;
        for (List<SpiderPairs.Item> items : taught.values()) {
            for (SpiderPairs.Item item : items) {
                String masked = QuestionMasker.mask(item.question(), doors.operator(item.dbId()).schema());
                List<ExampleLibrary.Hit> hits = file.similar(masked, item.dbId(), item.question(), 1);
                fileShape += hits.isEmpty() ? 0 : SqlShape.overlap(item.sql(), hits.get(0).example().sql());
                bothShape += SqlShape.overlap(item.sql(), topOfBoth(file, items, item, masked, catalog));
                List<String> used = Session.used(again.get(n));
                if (!used.isEmpty()) {
                    withLive++;
                    liveShape += SqlShape.overlap(item.sql(), byId.get(used.get(0)).sql());
                }
                n++;
            }
        }
        long beforeLive = before.stream().filter(a -> !Session.used(a).isEmpty()).count();
        System.out.printf(Locale.ROOT, "retrieval on the taught half (%d questions), SQL-shape overlap of the top example with the gold SQL:%n", n);
        System.out.printf(Locale.ROOT, "  before: no live examples (%d answers used one); a file library of the other %d databases would give %.3f%n",
                beforeLive, spider.byDb().size() - taught.size(), fileShape / n);
        System.out.printf(Locale.ROOT, "  after:  %.3f from the live library alone, in the job (%d of %d questions retrieved a live example of "
                + "their own database; a question never retrieves its own pair); %.3f with that file library and the live one "
                + "ranked together (the stage's retrieval, run here)%n", withLive == 0 ? 0 : liveShape / withLive, withLive, n, bothShape / n);
    }

    /** The top example of the file library and the database's other taught pairs ranked together, as the stage ranks them. */
    private static String topOfBoth(ExampleLibrary file, List<SpiderPairs.Item> sameDb, SpiderPairs.Item item, String masked,
                                    SqliteSchemaCatalog catalog) {
        List<String[]> live = sameDb.stream().map(i -> new String[] {i.id(), i.dbId(), i.question(), i.sql()}).toList();
        List<ExampleLibrary.Hit> hits = new ArrayList<>(new ExampleLibrary(ExampleLibrary.build(live, catalog))
                .similar(masked, item.dbId(), item.question(), 1));
        hits.addAll(file.similar(masked, item.dbId(), item.question(), 1));
        hits.sort(java.util.Comparator.comparingDouble(ExampleLibrary.Hit::similarity).reversed());
        return hits.isEmpty() ? "" : hits.get(0).example().sql();
    }

    private void leaks(List<AnswerEvent> again, List<AnswerEvent> others, Map<String, SpiderPairs.Item> byId) {
        long leaked = 0;
        long checked = 0;
        for (AnswerEvent a : concat(again, others)) {
            for (String id : Session.used(a)) {
                checked++;
                SpiderPairs.Item item = byId.get(id);
                if (item == null || !item.dbId().equals(a.dbId)) {
                    leaked++;
                }
            }
        }
        long othersUsing = others.stream().filter(a -> !Session.used(a).isEmpty()).count();
        System.out.printf(Locale.ROOT, "leaks: %d of %d live examples used came from another database; %d of %d answers on untaught databases used any%n",
                leaked, checked, othersUsing, others.size());
    }

    /** Sends {@code stateEvents} more pairs (new ids, the taught questions reworded) and reads the checkpoints before and after. */
    private void stateCost(Session session, Map<String, List<SpiderPairs.Item>> taught, CheckpointStats stats) throws Exception {
        CheckpointStats.Completed base = stats.latest();
        long baseLive = base == null ? 0 : stats.vertexStateSize(base.id(), "live library");
        List<SpiderPairs.Item> all = taught.values().stream().flatMap(List::stream).toList();
        for (int i = 0; i < stateEvents; i++) {
            SpiderPairs.Item item = all.get(i % all.size());
            session.send(FeedbackEvent.pair("bulk-" + i, item.dbId(), item.question() + " (variant " + i + ")", item.sql()));
        }
        SpiderPairs.Item last = all.get((stateEvents - 1) % all.size());
        String marker = "bulk-" + (stateEvents - 1);
        long deadline = System.currentTimeMillis() + Duration.ofMinutes(3).toMillis();
        boolean applied = false;
        while (!applied && System.currentTimeMillis() < deadline) {
            String id = session.ask(last.dbId(), last.question() + " (variant " + (stateEvents - 1) + ") Please.");
            applied = session.await(List.of(id), Duration.ofSeconds(30)).stream().anyMatch(a -> Session.used(a).contains(marker));
        }
        Thread.sleep(3000);
        List<Long> durations = new ArrayList<>();
        CheckpointStats.Completed after = null;
        long deadlineForFive = System.currentTimeMillis() + Duration.ofMinutes(1).toMillis();
        while (durations.size() < 5 && System.currentTimeMillis() < deadlineForFive) {
            Thread.sleep(200);
            CheckpointStats.Completed now = stats.latest();
            if (after == null || now.id() != after.id()) {
                after = now;
                durations.add(now.durationMillis());
            }
        }
        long live = stats.vertexStateSize(after.id(), "live library");
        System.out.printf(Locale.ROOT, "state for %d feedback events (%s): the task chain holding live-library %,d bytes (before %,d; both instances; "
                        + "the chain also holds dialogue-context's state, so the difference is the library's), "
                        + "whole checkpoint %,d bytes (before %,d); checkpoint end-to-end p50 %d ms, max %d ms of %d checkpoints (one before: %d ms)%n",
                stateEvents, applied ? "the last one used" : "the last one NOT seen used", live, baseLive, after.stateSize(),
                base == null ? 0 : base.stateSize(), pct(durations, 50),
                durations.stream().mapToLong(Long::longValue).max().orElse(0), durations.size(), base == null ? 0 : base.durationMillis());
    }

    private static List<AnswerEvent> askAll(Session session, Map<String, List<SpiderPairs.Item>> items) {
        List<String> ids = new ArrayList<>();
        items.values().forEach(list -> list.forEach(i -> ids.add(session.ask(i.dbId(), i.question()))));
        List<AnswerEvent> answers = session.await(ids, Duration.ofMinutes(3));
        if (answers.size() != ids.size()) {
            throw new IllegalStateException("only " + answers.size() + " of " + ids.size() + " answers");
        }
        return answers;
    }

    private static SpiderPairs.Item first(Map<String, List<SpiderPairs.Item>> items) {
        return items.values().iterator().next().get(0);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** The nearest-rank percentile of the values (0 when there are none). */
    private static long pct(List<Long> values, double p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)));
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.TraceEntry;
import io.flowsql.simulator.FreshDraws;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.TokenCounts;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the production job on a shared broker and the MiniCluster of the calling test, against the simulator in
 * fresh-draw mode (every SQL answer carries a draw number never given before, so an answer shows which call made
 * it), with or without the stage journal, killing a task the first time it meets chosen answers; returns the
 * committed answers, the simulator's call and token counts, the kills and the journal topic's content.
 */
final class JournalRuns {
    private JournalRuns() {}

    static Path sharedData() {
        return Path.of(System.getProperty("flowsql.shared.data"));
    }

    /** The simulator's gold SQL for Spider dev. */
    static GoldSqlOracle oracle() {
        return GoldSqlOracle.load(sharedData().resolve("spider/dev.json"));
    }

    /** Prompt + completion tokens the simulator answered with. */
    private static long served(TokenCounts counts) {
        return counts.promptTokens() + counts.completionTokens();
    }

    /** Prints each run's model calls, tokens served, journal hits and tokens they saved. */
    static void print(List<Run> runs, Set<String> killOn) {
        System.out.printf("%nstage journal, %d questions, task killed at the answers of %s:%n",
                runs.get(0).answers().size(), killOn);
        System.out.printf("  %-28s %8s %10s %12s %14s %8s%n", "run", "calls", "tokens", "journal hits", "tokens saved", "seconds");
        for (Run r : runs) {
            System.out.printf("  %-28s %8d %10d %12d %14d %8.1f%n", r.name(), r.calls(), r.tokens(), r.journalHits(),
                    r.tokensSaved(), r.millis() / 1000.0);
        }
    }

    /** The journal hits in an answer's trace (non-zero: the request was processed again and found its calls). */
    static long hits(AnswerEvent a) {
        return a.trace.stream().mapToLong(t -> t.journalHits).sum();
    }

    /** {@link #run} for a future: a failure is rethrown unchecked. */
    static Run runUnchecked(String bootstrap, String name, List<QuestionEvent> questions, GoldSqlOracle oracle,
                            boolean journal, Set<String> killOn) {
        try {
            return run(bootstrap, name, questions, oracle, journal, killOn);
        } catch (Exception e) {
            throw new IllegalStateException("run " + name + " failed", e);
        }
    }

    static Run run(String bootstrap, String name, List<QuestionEvent> questions, GoldSqlOracle oracle, boolean journal,
                   Set<String> killOn) throws Exception {
        Path sharedData = sharedData();
        long started = System.currentTimeMillis();
        String journalTopic = "journal-" + name;
        KillOnce.KILLS.put(name, new ArrayList<>());
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(oracle).freshDraws(true).build())) {
            KillOnce.SERVERS.put(name, llm);
            JobTopics topics = new JobTopics(bootstrap, name, 2);
            // One candidate per question: the journal does not care, and the loaded CI machine does. Transactions may
            // stay open 3 minutes, not the ITCases' 60 s (the job's default is 15): in a CI run with the README's
            // benchmarks beside the tests this test took 307 s and read 3 of its 500 answers, after "producer is
            // already fenced" for a restored checkpoint's transactions, which is also how a transaction the broker
            // aborted after its timeout shows (RecommitAfterRestoreTest).
            Map<String, String> options = new HashMap<>(Map.of(JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                    JobOptions.AGENT_CANDIDATES.key(), "1", JobOptions.TRANSACTION_TIMEOUT.key(), "3min"));
            if (journal) {
                options.put(JobOptions.JOURNAL_TOPIC.key(), journalTopic);
            }
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), options);
            List<AnswerEvent> answers;
            try (JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure()
                    .beforeAnswersSink(stream -> stream.map(new KillOnce(name, killOn)).uid("test-kill-once").name("kill once"))
                    .start("journal-" + name)) {
                topics.sendQuestions(questions);
                // returns once all are committed (≈40 s on a quiet machine); the bound is for a loaded one
                answers = topics.committedAnswers(questions.size(), Duration.ofSeconds(300), Duration.ofSeconds(2));
            }
            Journal read = journal ? Journal.read(bootstrap, journalTopic) : Journal.EMPTY;
            return new Run(name, answers, llm.requestCount(), served(llm.tokenCounts()), List.copyOf(KillOnce.KILLS.get(name)),
                    read, System.currentTimeMillis() - started);
        } finally {
            KillOnce.SERVERS.remove(name);
        }
    }

    /** One run's figures: its committed answers, model calls and tokens the simulator served, the kills, its journal. */
    record Run(String name, List<AnswerEvent> answers, long calls, long tokens, List<Kill> kills, Journal journal,
               long millis) {
        long journalHits() {
            return answers.stream().flatMap(a -> a.trace.stream()).mapToLong(t -> t.journalHits).sum();
        }

        long tokensSaved() {
            return answers.stream().flatMap(a -> a.trace.stream()).mapToLong((TraceEntry t) -> t.tokensSaved).sum();
        }

        /** Calls the simulator had received by the kill whose replies were not journaled by then: in flight. */
        long inFlightAt(Kill kill) {
            return kill.callsSoFar() - journal.keysWrittenBefore(kill.atMillis());
        }
    }

    /** A kill: when, and how many calls the simulator had received by then. */
    record Kill(String answer, long atMillis, long callsSoFar) {}

    /** Everything the journal topic holds (values and tombstones, before any compaction), read from the start. */
    record Journal(Map<String, List<JsonNode>> valuesByKey, Map<String, Long> firstWrittenAt, List<String> tombstones) {
        static final Journal EMPTY = new Journal(Map.of(), Map.of(), List.of());

        static Journal read(String bootstrap, String topic) throws Exception {
            Properties p = new Properties();
            p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                        .map(i -> new TopicPartition(topic, i.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
                Map<String, List<JsonNode>> values = new HashMap<>();
                Map<String, Long> firstAt = new HashMap<>();
                List<String> tombstones = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        if (r.value() == null) {
                            tombstones.add(r.key());
                        } else {
                            JsonNode entry = EventJson.mapper().readTree(r.value());
                            values.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(entry);
                            firstAt.merge(r.key(), entry.path("writtenAtMillis").asLong(), Math::min);
                        }
                    }
                }
                return new Journal(values, firstAt, tombstones);
            }
        }

        Set<String> keys() {
            return valuesByKey.keySet();
        }

        long keysWrittenBefore(long millis) {
            return firstWrittenAt.values().stream().filter(t -> t < millis).count();
        }

        /** The draw numbers in the replies journaled for a request before {@code millis}. */
        Set<Long> drawsOf(String requestId, long beforeMillis) {
            Set<Long> draws = new HashSet<>();
            valuesByKey.forEach((key, entries) -> entries.forEach(e -> {
                if (requestId.equals(e.path("journalId").asText()) && e.path("writtenAtMillis").asLong() < beforeMillis) {
                    e.path("choices").forEach(c -> draws.addAll(FreshDraws.drawsIn(c.asText())));
                }
            }));
            return draws;
        }

        /** Keys journaled twice with different replies (a decision made again). */
        List<String> conflicts() {
            return valuesByKey.entrySet().stream()
                    .filter(e -> e.getValue().stream().map(v -> v.path("choices")).distinct().count() > 1)
                    .map(Map.Entry::getKey).toList();
        }
    }

    /** Kills its task the first time it meets each chosen answer of its run, so each kill happens once. */
    static final class KillOnce implements MapFunction<AnswerEvent, AnswerEvent> {
        static final Map<String, List<Kill>> KILLS = new ConcurrentHashMap<>();
        static final Map<String, SimulatedLlmServer> SERVERS = new ConcurrentHashMap<>();
        private final String run;
        private final Set<String> killOn;

        KillOnce(String run, Set<String> killOn) {
            this.run = run;
            this.killOn = Set.copyOf(killOn);
        }

        @Override
        public AnswerEvent map(AnswerEvent answer) {
            List<Kill> kills = KILLS.get(run);
            if (killOn.contains(answer.requestId)) {
                synchronized (kills) {
                    if (kills.stream().noneMatch(k -> k.answer().equals(answer.requestId))) {
                        kills.add(new Kill(answer.requestId, System.currentTimeMillis(), SERVERS.get(run).requestCount()));
                        throw new IllegalStateException("injected task failure at " + answer.requestId);
                    }
                }
            }
            return answer;
        }
    }
}

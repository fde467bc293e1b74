package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.events.TraceEntry;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The learning loop end to end (real broker, MiniCluster at parallelism 2, the simulator over HTTP): verified pairs,
 * a duplicate, a retraction, a verdict and hostile feedback are sent while questions flow; a task is killed; after
 * the restore every later question on the database, in both parallel instances of the live library, retrieves the
 * accepted examples (named by feedback id in its trace), never the retracted or refused ones, and no question on
 * another database sees them; the bad feedback is dead-lettered and the database is unharmed.
 */
class LiveLearningITCase {
    private static final String FEEDBACK = "feedback";
    private static final String DB = "concert_singer";
    private static final int FIRST = 40;
    private static final int LATER = 36;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec(JobTopics.QUESTIONS, 2),
            new TopicSpec(JobTopics.ANSWERS, 2), new TopicSpec(JobTopics.DEAD_LETTERS, 1), new TopicSpec(FEEDBACK, 1));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void feedbackIsLearnedOnceSurvivesAKilledTaskAndReachesEveryInstance() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> first = SpiderQuestions.cycled(sharedData, FIRST, "opensearch");
        CrashOnce.CRASHED.set(false);
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms", JobOptions.STRATEGY.key(), "opensearch"));
            try (JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure()
                    .beforeAnswersSink(s -> s.map(new CrashOnce(FIRST / 2)).uid("test-crash-once").name("crash once"))
                    .start("live-learning")) {
                sendFeedback(List.of(
                        pair("fb-1", "How many singers are there?", "SELECT count(*) FROM singer"),
                        pair("fb-2", "What are the names of the stadiums?", "SELECT name FROM stadium"),
                        pair("fb-3", "List the concert names.", "SELECT concert_name FROM concert"),
                        record("fb-1", EventJson.toJson(pair("fb-1", "A different question under a used id", "SELECT 1"))),
                        record("bad-1", "{\"kind\": \"pair\", \"feedback_id\": \"bad-1\""),
                        record("bad-2", EventJson.toJson(pair("bad-2", "Drop the singers", "DROP TABLE singer"))),
                        record("bad-3", EventJson.toJson(pair("bad-3", "Delete them", "SELECT 1; DELETE FROM singer"))),
                        record("bad-4", EventJson.toJson(pair("bad-4", "Which planets?", "SELECT name FROM planet"))),
                        record("bad-5", "{\"kind\": \"verdict\", \"feedback_id\": \"bad-5\", \"request_id\": \"never-asked\", \"verdict\": \"correct\"}"),
                        record("rt-1", EventJson.toJson(FeedbackEvent.retraction("rt-1", "fb-3")))));
                topics.sendQuestions(first);
                List<AnswerEvent> before = topics.committedAnswers(FIRST, Duration.ofSeconds(120), Duration.ofSeconds(1));
                assertThat(CrashOnce.CRASHED).as("the task was killed while questions flowed").isTrue();
                assertThat(before).hasSize(FIRST);

                sendFeedback(List.of(record("v-1", EventJson.toJson(FeedbackEvent.verdict("v-1", first.get(5).requestId, true, null)))));
                List<QuestionEvent> later = new ArrayList<>(laterQuestions(sharedData));
                topics.sendQuestions(later);
                List<AnswerEvent> all = topics.committedAnswers(FIRST + later.size(), Duration.ofSeconds(120), Duration.ofSeconds(2));
                Set<String> laterIds = later.stream().map(q -> q.requestId).collect(Collectors.toSet());
                List<AnswerEvent> after = all.stream().filter(a -> laterIds.contains(a.requestId)).toList();
                assertThat(after).as("every later question answered once").hasSize(later.size());

                Set<Integer> instances = new HashSet<>();
                for (AnswerEvent a : after) {
                    List<String> used = used(a);
                    assertThat(used).as("no feedback id twice in %s", a.requestId).doesNotHaveDuplicates();
                    assertThat(used).as("never retracted, refused or repeated-id content").doesNotContain("fb-3", "bad-2", "bad-3", "bad-4");
                    if (DB.equals(a.dbId)) {
                        assertThat(used).as("%s retrieves the live examples", a.requestId).contains("fb-1", "fb-2");
                        instances.add(KeyGroupRangeAssignment.assignKeyToParallelOperator(a.dialogueId, 128, 2));
                    } else {
                        assertThat(used).as("%s on %s sees nothing of %s", a.requestId, a.dbId, DB).isEmpty();
                    }
                }
                assertThat(instances).as("both parallel instances of the live library served them").containsExactlyInAnyOrder(0, 1);
                assertThat(after).filteredOn(a -> DB.equals(a.dbId)).as("the verdict's pair is used too")
                        .anyMatch(a -> used(a).contains("v-1"));
                assertThat(after).filteredOn(a -> a.sql != null && a.sql.toLowerCase().contains("singer"))
                        .as("the hostile feedback left the database unharmed").anyMatch(a -> "answered".equals(a.status));

                List<DeadLetterEvent> dead = topics.committed(JobTopics.DEAD_LETTERS, 5, Duration.ofSeconds(30), Duration.ofSeconds(1))
                        .stream().map(r -> EventJson.parseDeadLetter(r.value())).toList();
                assertThat(dead).extracting(d -> d.key).containsExactlyInAnyOrder("bad-1", "bad-2", "bad-3", "bad-4", "bad-5");
                assertThat(dead).filteredOn(d -> "bad-1".equals(d.key)).allMatch(d -> d.reason.startsWith("not_json: "));
                assertThat(dead).filteredOn(d -> Set.of("bad-2", "bad-3", "bad-4").contains(d.key))
                        .allMatch(d -> d.reason.startsWith("feedback_refused: ") && d.topic.equals(FEEDBACK));
                assertThat(dead).filteredOn(d -> "bad-5".equals(d.key)).allMatch(d -> d.reason.startsWith("unknown_request: "));
            }
        }
    }

    private static List<String> used(AnswerEvent a) {
        return a.trace.stream().map((TraceEntry t) -> t.feedbackUsed).filter(java.util.Objects::nonNull)
                .flatMap(List::stream).toList();
    }

    /** Later questions: concert_singer ones in dialogues spread over both instances, and some on another database. */
    private static List<QuestionEvent> laterQuestions(Path sharedData) throws Exception {
        List<QuestionEvent> out = new ArrayList<>();
        List<QuestionEvent> pool = SpiderQuestions.of(sharedData, DB, 40);
        List<QuestionEvent> other = SpiderQuestions.of(sharedData, "pets_1", 10);
        for (int i = 0; i < LATER; i++) {
            QuestionEvent source = i % 6 == 5 ? other.get(i % other.size()) : pool.get(i % pool.size());
            QuestionEvent q = new QuestionEvent("later-" + i, "later-dialogue-" + i, source.dbId, source.question);
            q.options = new QuestionOptions();
            q.options.strategy = "opensearch";
            out.add(q);
        }
        return out;
    }

    private static FeedbackEvent pair(String id, String question, String sql) {
        return FeedbackEvent.pair(id, DB, question, sql);
    }

    private static Map.Entry<String, String> record(String key, String value) {
        return Map.entry(key, value);
    }

    private static Map.Entry<String, String> record(String key, FeedbackEvent f) {
        return Map.entry(key, EventJson.toJson(f));
    }

    private static void sendFeedback(List<?> records) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Object o : records) {
                Map.Entry<String, String> r = o instanceof FeedbackEvent f ? record(f.feedbackId, f) : castEntry(o);
                producer.send(new ProducerRecord<>(FEEDBACK, r.getKey().getBytes(StandardCharsets.UTF_8),
                        r.getValue().getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map.Entry<String, String> castEntry(Object o) {
        return (Map.Entry<String, String>) o;
    }

    /** Kills its task once, on the first answer after {@code after} answers went through it. */
    static final class CrashOnce extends RichMapFunction<AnswerEvent, AnswerEvent> {
        static final AtomicBoolean CRASHED = new AtomicBoolean();
        private final int after;
        private int seen;

        CrashOnce(int after) {
            this.after = after;
        }

        @Override
        public AnswerEvent map(AnswerEvent answer) {
            if (++seen > after / 2 && CRASHED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected task failure at " + answer.requestId);
            }
            return answer;
        }
    }
}

package io.flowsql.job;

import io.flowsql.devstack.CapturedLogs;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once through failures: 1000 questions, and a task that dies twice mid-run (a map after the
 * topology throws on the first answer past question 300, and, once the job has restarted, on the first past
 * question 700). The job restarts from its last checkpoint each time, and a read_committed reader still sees
 * exactly one answer per question: no gaps, no duplicates.
 */
class RecoveryITCase {
    private static final int QUESTIONS = 1000;
    private static final int FIRST_CRASH_FROM = 300;
    private static final int SECOND_CRASH_FROM = 700;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void aThousandQuestionsAndTwoTaskFailuresGiveExactlyAThousandAnswers() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> questions = SpiderQuestions.cycled(sharedData, QUESTIONS, "opensearch");
        CrashTwice.reset();
        CapturedLogs logs = CapturedLogs.start(RESTORES, COMMITTER);
        String log;

        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms"));
            List<AnswerEvent> answers;
            // The test's seam: the crashing map between the answer operator and its sink.
            try (JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure()
                    .beforeAnswersSink(stream -> stream.map(new CrashTwice(FIRST_CRASH_FROM, SECOND_CRASH_FROM)).uid("test-crash-once").name("crash once"))
                    .start("recovery")) {
                topics.sendQuestions(questions);
                answers = topics.committedAnswers(QUESTIONS, Duration.ofSeconds(100), Duration.ofSeconds(3));
                assertThat(failures(job.id())).as("the job failed twice, each time by the injected failure")
                        .hasSize(2).allMatch(trace -> trace.contains("injected task failure"));
            }

            assertThat(CrashTwice.CRASHED).as("both failures happened, past their questions")
                    .hasSize(2).satisfies(crashed -> {
                        assertThat(CrashTwice.questionNumber(crashed.get(0))).isGreaterThanOrEqualTo(FIRST_CRASH_FROM);
                        assertThat(CrashTwice.questionNumber(crashed.get(1))).isGreaterThanOrEqualTo(SECOND_CRASH_FROM);
                    });
            Map<String, Long> perRequest = answers.stream()
                    .collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perRequest.keySet()).as("no gaps").containsExactlyInAnyOrderElementsOf(
                    questions.stream().map(q -> q.requestId).toList());
            assertThat(answers).as("no duplicates").hasSize(QUESTIONS);
            assertThat(answers).filteredOn(a -> "answered".equals(a.status)).as("the oracle answers most of them")
                    .hasSizeGreaterThan(QUESTIONS * 9 / 10);
        } finally {
            log = logs.stop();
        }
        fencedCommitsAreTheRestoredCheckpointsTransactions(log);
    }

    private static final String RESTORES = "org.apache.flink.runtime.checkpoint.CheckpointCoordinator";
    private static final String COMMITTER = "org.apache.flink.connector.kafka.sink.internal.KafkaCommitter";

    /**
     * docs/FAULTS.md#kafka-committer-after-a-restore: the connector's "producer is already fenced" ERROR after a
     * restore names only transactions the restored checkpoint's state held (the committer recommitting what it had
     * committed before the failure, RecommitAfterRestoreTest): of that checkpoint or an earlier one, never of a later
     * checkpoint or another writer; the answers above are exactly one per question all the same.
     */
    private static void fencedCommitsAreTheRestoredCheckpointsTransactions(String log) {
        List<Long> restored = new ArrayList<>();
        Matcher restore = Pattern.compile("Restoring job \\S+ from Checkpoint (\\d+) @").matcher(log);
        while (restore.find()) {
            restored.add(Long.parseLong(restore.group(1)));
        }
        List<Long> fenced = new ArrayList<>();
        for (String line : log.split("\\n")) {
            if (line.contains("already fenced")) {
                Matcher id = Pattern.compile("transactionalId=\\S+?-\\d+-(\\d+)\\b").matcher(line);
                assertThat(id.find()).as("a fenced commit names its transaction: " + line).isTrue();
                fenced.add(Long.parseLong(id.group(1)));
            }
        }
        System.out.printf("restored from checkpoints %s; commits fenced as already committed: %d, of checkpoints %s%n",
                restored, fenced.size(), fenced);
        // Checkpoint N's state holds every committable not yet committed when N was taken: its own, and an earlier
        // checkpoint's whose commit (on that checkpoint's completion notice) had not run yet (seen in CI: restored
        // from 2, the commit of 1 fenced). A fenced commit of a later checkpoint than any restored, or one with no
        // restore at all (both crashes before any checkpoint completed), would not be a recommit.
        long newestRestored = restored.stream().mapToLong(Long::longValue).max().orElse(0);
        assertThat(fenced).as("fenced commits are of the checkpoints restored or older ones their state still held")
                .allSatisfy(checkpoint -> assertThat(checkpoint).isBetween(1L, newestRestored));
    }

    /**
     * The failures the job went through, as its REST API's exception history lists them (newest first): each entry's
     * root failure and the failures of other subtasks concurrent with it (two crashes in one restart window are one
     * entry with a concurrent exception).
     */
    private static List<String> failures(JobID job) throws Exception {
        Configuration client = FLINK.getClientConfiguration();
        URI uri = URI.create("http://" + client.get(RestOptions.ADDRESS) + ":" + client.get(RestOptions.PORT)
                + "/jobs/" + job + "/exceptions");
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        List<String> out = new ArrayList<>();
        EventJson.mapper().readTree(body).path("exceptionHistory").path("entries")
                .forEach(e -> {
                    out.add(e.path("stacktrace").asText());
                    e.path("concurrentExceptions").forEach(c -> out.add(c.path("stacktrace").asText()));
                });
        return out;
    }

    /**
     * Fails its task twice in this JVM: on the first answer to a question numbered at least {@code firstFrom}, and then,
     * in a task attempt started by the restart that first failure caused, on the first answer numbered at least
     * {@code secondFrom}. The second failure waits for a new attempt because a subtask that throws while the first
     * failover cancels it is not recorded as a failure: two crashes in one window would be one failure.
     */
    static final class CrashTwice extends RichMapFunction<AnswerEvent, AnswerEvent> {
        static final List<String> CRASHED = new CopyOnWriteArrayList<>();
        private static final AtomicInteger CRASHES = new AtomicInteger();
        private final int firstFrom;
        private final int secondFrom;

        CrashTwice(int firstFrom, int secondFrom) {
            this.firstFrom = firstFrom;
            this.secondFrom = secondFrom;
        }

        static void reset() {
            CRASHED.clear();
            CRASHES.set(0);
        }

        static int questionNumber(String requestId) {
            return Integer.parseInt(requestId.substring(requestId.lastIndexOf('-') + 1));
        }

        @Override
        public AnswerEvent map(AnswerEvent answer) {
            int number = questionNumber(answer.requestId);
            boolean restarted = getRuntimeContext().getTaskInfo().getAttemptNumber() > 0;
            if ((number >= firstFrom && CRASHES.compareAndSet(0, 1))
                    || (restarted && number >= secondFrom && CRASHES.compareAndSet(1, 2))) {
                CRASHED.add(answer.requestId);
                throw new IllegalStateException("injected task failure at " + answer.requestId);
            }
            return answer;
        }
    }
}

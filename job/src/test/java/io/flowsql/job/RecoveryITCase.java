package io.flowsql.job;

import io.flowsql.devstack.CapturedLogs;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.changelog.fs.FsStateChangelogOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateChangelogOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once through failures: 1000 questions, and a task that dies twice mid-run (a map after the
 * topology throws on the first answer past question 300, and, once the job has restarted, on the first past
 * question 700). The job restarts from its last checkpoint each time, and a read_committed reader still sees
 * exactly one answer per question: no gaps, no duplicates.
 *
 * <p>The keyed state goes through Flink's changelog (job.state-changelog, materialized every 3 s, so a restore reads a
 * materialized state and the changes after it): after both restores, 20 of the first questions sent again are
 * dead-lettered as repeats, which needs their request ids restored from before the first failure. The heap backend
 * without the changelog restores in {@link JournalRecoveryITCase}.
 */
class RecoveryITCase {
    private static final int QUESTIONS = 1000;
    private static final int FIRST_CRASH_FROM = 300;
    private static final int SECOND_CRASH_FROM = 700;
    private static final int REPEATED = 20;

    /** Checkpoints and the changelog's files; the changelog's storage is the TaskManager's setting, so the cluster's. */
    private static final Path CHECKPOINTS = temporaryFolder();

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(Configuration.fromMap(Map.of(
            StateChangelogOptions.STATE_CHANGE_LOG_STORAGE.key(), StateChangelog.STORAGE,
            FsStateChangelogOptions.BASE_PATH.key(), StateChangelog.folder(CHECKPOINTS.toUri().toString()))));

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
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                    JobOptions.CHECKPOINT_DIR.key(), CHECKPOINTS.toUri().toString(),
                    JobOptions.STATE_CHANGELOG.key(), "true",
                    JobOptions.STATE_MATERIALIZE_INTERVAL.key(), "3s"));
            List<AnswerEvent> answers;
            // The test's seam: the crashing map between the answer operator and its sink.
            try (FilesSeen changelogFiles = new FilesSeen(CHECKPOINTS.resolve("changelog"));
                 JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure()
                    .beforeAnswersSink(stream -> stream.map(new CrashTwice(FIRST_CRASH_FROM, SECOND_CRASH_FROM)).uid("test-crash-once").name("crash once"))
                    .start("recovery")) {
                // sent in three parts, each once the crashing map has seen a checkpoint complete in the attempt the
                // next crash needs: no answer that should crash can pass before that (a fast job and a slow first
                // checkpoint once let every answer past 700 through before the restarted attempt's first checkpoint)
                topics.sendQuestions(questions.subList(0, FIRST_CRASH_FROM));
                CrashTwice.awaitCheckpointed(0, Duration.ofSeconds(60));
                topics.sendQuestions(questions.subList(FIRST_CRASH_FROM, SECOND_CRASH_FROM));
                CrashTwice.awaitCheckpointed(1, Duration.ofSeconds(60));
                topics.sendQuestions(questions.subList(SECOND_CRASH_FROM, QUESTIONS));
                answers = topics.committedAnswers(QUESTIONS, Duration.ofSeconds(100), Duration.ofSeconds(3));
                assertThat(failures(job.id())).as("the job failed twice, each time by the injected failure")
                        .hasSize(2).allMatch(trace -> trace.contains("injected task failure"));

                List<QuestionEvent> repeats = questions.subList(0, REPEATED);
                topics.sendQuestions(repeats);
                assertThat(deadLetters(topics)).as("the first questions' ids, restored through the changelog, make their repeats dead letters")
                        .allSatisfy(d -> assertThat(d.reason).startsWith("duplicate_request_id"))
                        .extracting(d -> EventJson.parseQuestion(d.raw.getBytes(StandardCharsets.UTF_8)).question().requestId)
                        .containsExactlyInAnyOrderElementsOf(repeats.stream().map(q -> q.requestId).toList());
                assertThat(topics.committedAnswers(QUESTIONS, Duration.ofSeconds(10), Duration.ofSeconds(2)))
                        .as("a repeat is not answered again").hasSize(QUESTIONS);
                assertThat(changelogFiles.most()).as("changelog files while the job ran (the TaskManager's storage)").isPositive();
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

    private static Path temporaryFolder() {
        try {
            return Files.createTempDirectory("flowsql-recovery-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void removeCheckpoints() throws IOException {
        try (Stream<Path> paths = Files.walk(CHECKPOINTS)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The most regular files seen under a folder, looked at every 100 ms until closed: the changelog's files live only
     * until a materialization and a later checkpoint make them unneeded, so an idle job at the end may have none.
     */
    private static final class FilesSeen implements AutoCloseable {
        private final Path folder;
        private final AtomicLong most = new AtomicLong();
        private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

        FilesSeen(Path folder) {
            this.folder = folder;
            sampler.scheduleWithFixedDelay(this::look, 0, 100, TimeUnit.MILLISECONDS);
        }

        private void look() {
            if (Files.isDirectory(folder)) {
                try (Stream<Path> files = Files.walk(folder)) {
                    most.accumulateAndGet(files.filter(Files::isRegularFile).count(), Math::max);
                } catch (IOException | UncheckedIOException e) {
                    // a file deleted while walking: the next look counts again
                }
            }
        }

        long most() {
            return most.get();
        }

        @Override
        public void close() {
            sampler.shutdownNow();
        }
    }

    private static List<DeadLetterEvent> deadLetters(JobTopics topics) throws IOException {
        List<DeadLetterEvent> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : topics.committed(JobTopics.DEAD_LETTERS, REPEATED, Duration.ofSeconds(60),
                Duration.ofSeconds(2))) {
            out.add(EventJson.mapper().readValue(r.value(), DeadLetterEvent.class));
        }
        return out;
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
     * failover cancels it is not recorded as a failure: two crashes in one window would be one failure. Each waits
     * until a checkpoint has completed in its attempt, so each restore reads a checkpoint (the first checkpoint
     * after a start can take seconds on a loaded machine, and a crash before it would replay everything instead).
     */
    static final class CrashTwice extends RichMapFunction<AnswerEvent, AnswerEvent> implements CheckpointListener {
        static final List<String> CRASHED = new CopyOnWriteArrayList<>();
        private static final AtomicInteger CRASHES = new AtomicInteger();
        private final int firstFrom;
        private final int secondFrom;
        /** Whether a checkpoint completed in this task attempt (a restart makes a new instance). */
        private transient boolean checkpointed;

        CrashTwice(int firstFrom, int secondFrom) {
            this.firstFrom = firstFrom;
            this.secondFrom = secondFrom;
        }

        /** "attempt/subtask" of every task attempt notified of a completed checkpoint. */
        private static final Set<String> CHECKPOINTED = ConcurrentHashMap.newKeySet();
        private static volatile int subtasks;

        static void reset() {
            CRASHED.clear();
            CRASHES.set(0);
            CHECKPOINTED.clear();
            subtasks = 0;
        }

        /**
         * Waits until {@code crashes} injected failures happened and every subtask's attempt number {@code crashes}
         * (the job restarts whole: one attempt per failure) was notified of a completed checkpoint, so each can fail
         * at its next answer past the threshold.
         */
        static void awaitCheckpointed(int crashes, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (CRASHES.get() < crashes || subtasks == 0 || CHECKPOINTED.stream()
                    .filter(entry -> entry.startsWith(crashes + "/")).count() < subtasks) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no checkpoint completed in every subtask after " + crashes
                            + " injected failures within " + timeout + ": " + CHECKPOINTED + ", crashes " + CRASHES.get());
                }
                Thread.sleep(50);
            }
        }

        static int questionNumber(String requestId) {
            return Integer.parseInt(requestId.substring(requestId.lastIndexOf('-') + 1));
        }

        @Override
        public AnswerEvent map(AnswerEvent answer) {
            int number = questionNumber(answer.requestId);
            boolean restarted = getRuntimeContext().getTaskInfo().getAttemptNumber() > 0;
            if (checkpointed && ((number >= firstFrom && CRASHES.compareAndSet(0, 1))
                    || (restarted && number >= secondFrom && CRASHES.compareAndSet(1, 2)))) {
                CRASHED.add(answer.requestId);
                throw new IllegalStateException("injected task failure at " + answer.requestId);
            }
            return answer;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
            subtasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            CHECKPOINTED.add(getRuntimeContext().getTaskInfo().getAttemptNumber() + "/"
                    + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
        }
    }
}

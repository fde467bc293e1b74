package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job's shaded jar on a standalone Flink session cluster (a JobManager and TaskManagers as separate JVMs, started
 * by deploy/flink-cluster-start.sh), the real broker and the simulated LLM over HTTP. A stream of Spider questions
 * flows the whole time, and multi-turn CoSQL dialogues are spread over three runs of the job: submitted at parallelism
 * 4 on 2 TaskManagers, stopped with a savepoint mid-stream (REST stop, drain=false), resumed from it at parallelism 2,
 * stopped again, and resumed at parallelism 4 with a third TaskManager. Keyed state (dialogue history, held turns,
 * gathers) and operator state (Kafka splits, sink transactions) must survive both rescales: a read_committed reader
 * sees exactly one answer per question, and every dialogue's turns are answered in order, each with the SQL of the
 * turns answered before it, in earlier runs of the job, in its prompts.
 *
 * <p>Run by failsafe in the integration-test phase, after the shaded jar is packaged (in .ci/run by surefire, on the
 * jar it packages first: profile cluster-tests-in-surefire).
 */
class RescaleOnClusterIT {
    /**
     * Dialogues whose first turns are sent one per run (the rest with the third), so the later turns need history
     * restored from a savepoint.
     */
    private static final int STAGED_DIALOGUES = 3;
    /** Dialogues sent all at once just before the first stop, so turns are held in state when it is taken. */
    private static final int BURST_DIALOGUES = 2;
    /** Single questions the stream sends in all, one per pause, from the first run on (they span the first stop). */
    private static final int STREAM_QUESTIONS = 40;
    private static final Duration STREAM_PAUSE = Duration.ofMillis(1_000);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(4));

    @Test
    void stopWithSavepointAndResumeAtParallelism2ThenAt4WithAThirdTaskManagerLosesAndDoublesNothing() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path projectDir = Path.of(System.getProperty("flowsql.project.dir"));
        Path jobJar = Path.of(System.getProperty("flowsql.job.jar"));
        Path work = Path.of(System.getProperty("flowsql.test.work"), "rescale-on-cluster");
        assertThat(jobJar).as("the shaded job jar (packaged before the integration tests)").isRegularFile();

        GoldSqlOracle oracle = GoldSqlOracle.load(sharedData.resolve("spider/dev.json"), sharedData.resolve("cosql/cosql_dev.json"));
        List<CosqlDialogues.Dialogue> dialogues = CosqlDialogues.answerable(sharedData, oracle, 3, 4,
                STAGED_DIALOGUES + BURST_DIALOGUES);
        List<QuestionEvent> pool = SpiderQuestions.of(sharedData, "concert_singer", 40);

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(30)).responders(AgentResponders.all()).oracle(oracle).build());
             ScriptedFlinkCluster cluster = ClusterItRun.cluster(projectDir, work.resolve("cluster"), 2, "1536m");
             TopicReader answersReader = new TopicReader(KAFKA.bootstrapServers(), JobTopics.ANSWERS);
             QuestionStream stream = new QuestionStream(new JobTopics(KAFKA.bootstrapServers()), pool, STREAM_QUESTIONS, STREAM_PAUSE)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            List<QuestionEvent> sent = new ArrayList<>();
            cluster.start(2);

            // Run 1: parallelism 4 on 2 TaskManagers × 2 slots.
            String job = submit(cluster, jobJar, Optional.empty(), 4, topics, sharedData, llm.baseUrl());
            for (int d = 0; d < STAGED_DIALOGUES; d++) {
                sent.add(dialogues.get(d).question(stagedId(d), 0));
            }
            topics.sendQuestions(sent);
            stream.start();
            awaitAnswers(answersReader, 10, Duration.ofSeconds(180));
            List<QuestionEvent> burst = new ArrayList<>();
            for (int d = 0; d < BURST_DIALOGUES; d++) {
                burst.addAll(dialogues.get(STAGED_DIALOGUES + d).questions(burstId(d)));
            }
            topics.sendQuestions(burst);
            sent.addAll(burst);
            String savepoint1 = stop(cluster, job, answersReader, stream, sent);

            // Run 2: parallelism 2, same TaskManagers.
            job = submit(cluster, jobJar, Optional.of(savepoint1), 2, topics, sharedData, llm.baseUrl());
            List<QuestionEvent> second = new ArrayList<>();
            for (int d = 0; d < STAGED_DIALOGUES; d++) {
                second.add(dialogues.get(d).question(stagedId(d), 1));
            }
            topics.sendQuestions(second);
            sent.addAll(second);
            // the third TaskManager (for run 3) starts while this run answers: run 2's tasks are all deployed already
            cluster.start(3);
            awaitAnswers(answersReader, answersReader.readAtLeast(0, Duration.ZERO).size() + 10, Duration.ofSeconds(180));
            String savepoint2 = stop(cluster, job, answersReader, stream, sent);

            // Run 3: on three TaskManagers, parallelism 4 again.
            job = submit(cluster, jobJar, Optional.of(savepoint2), 4, topics, sharedData, llm.baseUrl());
            List<QuestionEvent> third = new ArrayList<>();
            for (int d = 0; d < STAGED_DIALOGUES; d++) {
                List<QuestionEvent> turns = dialogues.get(d).questions(stagedId(d));
                third.addAll(turns.subList(2, turns.size()));
            }
            topics.sendQuestions(third);
            sent.addAll(third);
            awaitAnswers(answersReader, answersReader.readAtLeast(0, Duration.ZERO).size() + 5, Duration.ofSeconds(180));
            sent.addAll(stream.stop());

            int expected = sent.size();
            answersReader.readAtLeast(expected, Duration.ofSeconds(240));
            List<AnswerEvent> answers = answersReader.drain(Duration.ofSeconds(3)).stream()
                    .map(ConsumerRecord::value).map(EventJson::parseAnswer).toList();
            log("%d questions sent, %d answers committed", expected, answers.size());

            Map<String, Long> perRequest = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perRequest.keySet()).as("an answer for every question (no gaps)")
                    .containsExactlyInAnyOrderElementsOf(sent.stream().map(q -> q.requestId).toList());
            assertThat(perRequest).as("exactly one answer per question (no duplicates)").allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
            assertThat(answers).filteredOn(a -> "answered".equals(a.status)).as("the oracle answers nearly all")
                    .hasSizeGreaterThan(expected * 9 / 10);

            for (int d = 0; d < STAGED_DIALOGUES + BURST_DIALOGUES; d++) {
                String dialogueId = d < STAGED_DIALOGUES ? stagedId(d) : burstId(d - STAGED_DIALOGUES);
                CosqlDialogues.Dialogue dialogue = dialogues.get(d);
                List<AnswerEvent> turns = answers.stream().filter(a -> a.dialogueId.equals(dialogueId)).toList();
                assertThat(turns).extracting(a -> a.requestId).as(dialogueId + ": one answer per turn, in turn order")
                        .containsExactlyElementsOf(dialogue.questions(dialogueId).stream().map(q -> q.requestId).toList());
                assertThat(turns).allSatisfy(a -> assertThat(a.status).as(a.requestId + ": " + a.error).isEqualTo("answered"));
                CosqlDialogues.assertAnsweredInOrderWithHistory(llm.requests(), dialogue, turns);
            }
        }
    }

    private static String stagedId(int d) {
        return "staged-" + d;
    }

    private static String burstId(int d) {
        return "burst-" + d;
    }

    /** Submits the job (from {@code savepoint} when given) and checks its parallelism and what it restored. */
    private static String submit(ScriptedFlinkCluster cluster, Path jobJar, Optional<String> savepoint, int parallelism,
                                 JobTopics topics, Path sharedData, String llmBaseUrl) {
        JobConfig config = topics.jobConfig(sharedData, llmBaseUrl, Map.of(
                JobOptions.PARALLELISM.key(), Integer.toString(parallelism),
                JobOptions.STRATEGY.key(), "mmsql",
                JobOptions.CHECKPOINT_INTERVAL.key(), "1s",
                // With read_uncommitted feedback (the default) this test saw a dialogue's turn 2 answered before turn 1:
                // the savepoint held turn 1 as answered (its answer read back before the barrier) while the answer
                // itself was emitted after the barrier, aborted, and produced again after the restore.
                JobOptions.FEEDBACK_ISOLATION.key(), "read_committed",
                // Far beyond the test: a turn released by this timer instead of by its feedback fails the history check.
                JobOptions.FEEDBACK_WAIT.key(), "30min"));
        List<String> args = config.asArguments();
        int[] overview = cluster.overview();
        String job = cluster.submit(jobJar, savepoint, args);
        Map<String, Integer> vertices = cluster.vertexParallelism(job);
        log("job %s RUNNING at parallelism %s on %d TaskManagers (%d slots)%s", job,
                vertices.values().stream().distinct().sorted().toList(), overview[0], overview[1],
                savepoint.map(s -> ", restored from " + s).orElse(", fresh"));
        // the feedback path (source, parse, check, outcome) runs at parallelism 1 by design: one live library, broadcast;
        // so does the idle signal (no records: its enumerator tells the checkpoint coordinator when the job is idle)
        assertThat(vertices).as("every operator at the parallelism asked for").isNotEmpty()
                .allSatisfy((name, p) -> assertThat(p).as(name).isEqualTo(name.startsWith("Source: feedback")
                        || name.startsWith("feedback check") || name.startsWith("Source: idle signal") ? 1 : parallelism));
        if (savepoint.isPresent()) {
            Optional<String> restored = Optional.empty();
            for (int i = 0; i < 60 && restored.isEmpty(); i++) {
                restored = cluster.restoredFrom(job);
                if (restored.isEmpty()) {
                    sleep(Duration.ofMillis(500));
                }
            }
            assertThat(restored.map(RescaleOnClusterIT::plainPath)).as("the job's restore, per its checkpoint statistics")
                    .contains(plainPath(savepoint.get()));
        }
        return job;
    }

    /** Stops the job with a savepoint while the stream keeps sending, and logs where things stood. */
    private static String stop(ScriptedFlinkCluster cluster, String job, TopicReader answers, QuestionStream stream,
                               List<QuestionEvent> sentSoFar) {
        Map<String, Integer> before = cluster.vertexParallelism(job);
        int committed = answers.readAtLeast(0, Duration.ZERO).size();
        String savepoint = cluster.stopWithSavepoint(job);
        log("job %s stopped with savepoint %s at parallelism %s; by then %d questions sent, %d answers committed",
                job, savepoint, before.values().stream().distinct().sorted().toList(),
                sentSoFar.size() + stream.sentSoFar(), committed);
        return savepoint;
    }

    private static void awaitAnswers(TopicReader answers, int atLeast, Duration within) {
        int seen = answers.readAtLeast(atLeast, within).size();
        assertThat(seen).as("committed answers within " + within).isGreaterThanOrEqualTo(atLeast);
    }

    /** A savepoint path without its scheme, as the stop answer ("file:/…") and the restore statistics may differ in it. */
    private static String plainPath(String location) {
        return location.replaceFirst("^file:(//)?", "").replaceAll("/+$", "");
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void log(String format, Object... args) {
        System.out.printf("[rescale-on-cluster] " + format + "%n", args);
    }

    /** Sends single Spider questions, one per pause, from its own thread until it sent {@code count} or is stopped. */
    private static final class QuestionStream implements AutoCloseable {
        private final JobTopics topics;
        private final List<QuestionEvent> pool;
        private final int count;
        private final Duration pause;
        private final List<QuestionEvent> sent = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean();
        private Thread thread;

        QuestionStream(JobTopics topics, List<QuestionEvent> pool, int count, Duration pause) {
            this.topics = topics;
            this.pool = pool;
            this.count = count;
            this.pause = pause;
        }

        void start() {
            running.set(true);
            thread = new Thread(() -> {
                for (int i = 0; i < count && running.get(); i++) {
                    QuestionEvent q = new QuestionEvent("single-" + i, "single-" + i, "concert_singer",
                            pool.get(i % pool.size()).question);
                    topics.sendQuestions(List.of(q));
                    sent.add(q);
                    sleep(pause);
                }
            }, "question-stream");
            thread.start();
        }

        int sentSoFar() {
            return sent.size();
        }

        List<QuestionEvent> stop() throws InterruptedException {
            running.set(false);
            if (thread != null) {
                thread.join();
            }
            return List.copyOf(sent);
        }

        @Override
        public void close() throws InterruptedException {
            stop();
        }
    }
}

package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The common frame of a failover test on the scripted standalone cluster: the job (parallelism 2, MAG-SQL, the oracle
 * model) runs on one TaskManager with questions in three batches — the first answered before the fault, the second
 * sent just before it, the third after recovery — and a read_committed reader must then see exactly one answer per
 * question. The test in between does the fault and measures the recovery.
 */
final class ClusterFailoverRun implements AutoCloseable {
    static final int BATCH = 10;

    private final String tag;
    private final List<QuestionEvent> questions;
    private final OracleLlm llm;
    final ScriptedFlinkCluster cluster;
    private final TopicReader answers;
    private final JobTopics topics;
    private final String job;

    /** Starts the model and a cluster of one TaskManager ({@code configure} may add, e.g., ZooKeeper HA); not the job yet. */
    ClusterFailoverRun(String tag, String bootstrapServers, UnaryOperator<ScriptedFlinkCluster> configure) throws Exception {
        this(tag, bootstrapServers, configure, Map.of());
    }

    /** The same, with job options beside the parallelism of 2 (e.g. job.state-changelog). */
    ClusterFailoverRun(String tag, String bootstrapServers, UnaryOperator<ScriptedFlinkCluster> configure,
                       Map<String, String> jobOptions) throws Exception {
        this.tag = tag;
        ClusterItRun run = ClusterItRun.fromSystemProperties(tag);
        assertThat(run.jobJar()).as("the shaded job jar (packaged before the integration tests)").isRegularFile();
        this.questions = SpiderQuestions.cycled(run.sharedData(), 3 * BATCH, "mag-sql");
        this.llm = OracleLlm.start(run.sharedData());
        this.cluster = configure.apply(ClusterItRun.cluster(run.projectDir(), run.work().resolve("cluster"), 2, "1536m"));
        this.answers = new TopicReader(bootstrapServers, JobTopics.ANSWERS);
        this.topics = new JobTopics(bootstrapServers);
        try {
            cluster.start(1);
            Map<String, String> options = new HashMap<>(jobOptions);
            options.put(JobOptions.PARALLELISM.key(), "2");
            List<String> args = topics.jobConfig(run.sharedData(), llm.baseUrl(), options).asArguments();
            this.job = cluster.submit(run.jobJar(), Optional.empty(), args);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    String job() {
        return job;
    }

    /** Sends batch {@code n} (0, 1 or 2). */
    void sendBatch(int n) {
        topics.sendQuestions(questions.subList(n * BATCH, (n + 1) * BATCH));
    }

    /** Sends the first batch and waits for its answers: the job is known to work before the fault. */
    void answerFirstBatch() {
        answerFirstBatch(() -> { });
    }

    /**
     * Sends the first batch, runs {@code meanwhile} (e.g. starting a spare TaskManager) while the job answers it, then
     * waits for its answers.
     */
    void answerFirstBatch(Runnable meanwhile) {
        sendBatch(0);
        meanwhile.run();
        assertThat(answers.readAtLeast(BATCH, Duration.ofSeconds(180))).as("answers before the fault")
                .hasSizeGreaterThanOrEqualTo(BATCH);
    }

    /** Sends the last batch, reads every answer and checks exactly one per question sent. */
    void sendLastBatchAndCheckExactlyOnce() {
        sendBatch(2);
        answers.readAtLeast(3 * BATCH, Duration.ofSeconds(180));
        List<AnswerEvent> all = answers.drain(Duration.ofSeconds(3)).stream().map(ConsumerRecord::value)
                .map(EventJson::parseAnswer).toList();
        Map<String, Long> perRequest = all.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
        System.out.printf("[%s] sent=%d answered=%d doubled=%d%n", tag, questions.size(), perRequest.size(),
                perRequest.values().stream().filter(n -> n > 1).count());
        assertThat(perRequest.keySet()).as("none lost").containsExactlyInAnyOrderElementsOf(
                questions.stream().map(q -> q.requestId).toList());
        assertThat(perRequest).as("none doubled").allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
    }

    /** Whether the job and every one of its tasks run (a region failover may keep the job RUNNING while tasks restart). */
    static boolean allRunning(JsonNode jobState) {
        boolean all = "RUNNING".equals(jobState.path("state").asText()) && jobState.path("vertices").size() > 0;
        for (JsonNode v : jobState.path("vertices")) {
            all &= "RUNNING".equals(v.path("status").asText());
        }
        return all;
    }

    @Override
    public void close() throws Exception {
        try (OracleLlm l = llm; ScriptedFlinkCluster c = cluster; TopicReader a = answers) {
            // closed in reverse order
        }
    }
}

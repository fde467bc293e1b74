package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A TaskManager of the standalone cluster (deploy/flink-cluster-start.sh, with its heartbeat settings) is killed with
 * SIGKILL while the job runs on it and questions flow; a spare TaskManager stands by. Measured and printed: the time
 * until the JobManager notices (the failure's time in the job's exception history, and the job leaving RUNNING), until
 * the TaskManager is unregistered, and until every task runs again on the spare. Checked: detection within
 * {@value #DETECTION_BOUND_MILLIS} ms (Flink's default heartbeats took 15.5 s here) and exactly one answer per question
 * (read_committed) across the failover, from the latest checkpoint.
 *
 * <p>Run by failsafe in the integration-test phase, after the shaded jar is packaged.
 */
class TaskManagerLossIT {
    /** heartbeat.interval 2 s × heartbeat.rpc-failure-threshold 2, plus a loaded machine's slack. */
    private static final long DETECTION_BOUND_MILLIS = 8_000;
    private static final int BATCH = 10;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @Test
    void aKilledTaskManagerIsNoticedInSecondsAndTheJobFailsOverWithoutLossOrDuplicates() throws Exception {
        ClusterItRun run = ClusterItRun.fromSystemProperties("taskmanager-loss");
        assertThat(run.jobJar()).as("the shaded job jar (packaged before the integration tests)").isRegularFile();
        List<QuestionEvent> questions = SpiderQuestions.cycled(run.sharedData(), 3 * BATCH, "mag-sql");

        try (OracleLlm llm = OracleLlm.start(run.sharedData());
                ScriptedFlinkCluster cluster = new ScriptedFlinkCluster(run.projectDir(), run.work().resolve("cluster"),
                        ClusterItRun.mavenCommand(), 2, "1536m");
                TopicReader answers = new TopicReader(KAFKA.bootstrapServers(), JobTopics.ANSWERS)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            cluster.start(1);
            List<String> args = topics.jobConfig(run.sharedData(), llm.baseUrl(), Map.of(JobOptions.PARALLELISM.key(), "2"))
                    .asArguments();
            String job = cluster.submit(run.jobJar(), Optional.empty(), args);
            topics.sendQuestions(questions.subList(0, BATCH));
            assertThat(answers.readAtLeast(BATCH, Duration.ofSeconds(180))).as("answers before the kill").hasSizeGreaterThanOrEqualTo(BATCH);

            cluster.start(2); // the spare: the job's tasks all run on TaskManager 1
            long victim = cluster.taskManagerPid(1);
            topics.sendQuestions(questions.subList(BATCH, 2 * BATCH));
            long killedAt = System.currentTimeMillis();
            assertThat(ProcessHandle.of(victim).orElseThrow().destroyForcibly()).isTrue();

            long leftRunningAt = 0;
            long unregisteredAt = 0;
            long runningAgainAt = 0;
            long deadline = killedAt + 180_000;
            while (System.currentTimeMillis() < deadline && runningAgainAt == 0) {
                JsonNode state = cluster.get("/jobs/" + job);
                long now = System.currentTimeMillis();
                // A region failover restarts the tasks while the job itself may stay RUNNING (only a global failover
                // passes through RESTARTING), so "left running" is the job or any of its tasks leaving RUNNING.
                boolean allRunning = "RUNNING".equals(state.path("state").asText()) && state.path("vertices").size() > 0;
                for (JsonNode v : state.path("vertices")) {
                    allRunning &= "RUNNING".equals(v.path("status").asText());
                }
                if (leftRunningAt == 0 && !allRunning) {
                    leftRunningAt = now;
                }
                if (unregisteredAt == 0 && cluster.overview()[0] == 1) {
                    unregisteredAt = now;
                }
                if (leftRunningAt != 0 && allRunning) {
                    runningAgainAt = now;
                }
                Thread.sleep(100);
            }
            long failedAt = failureTimestamp(cluster, job);
            topics.sendQuestions(questions.subList(2 * BATCH, 3 * BATCH));
            System.out.printf("[taskmanager-loss] kill -9 of TaskManager %d: failure recorded after %d ms, a task left RUNNING after %d ms, "
                    + "TaskManager unregistered after %d ms, every task running again after %d ms%n", victim, failedAt - killedAt,
                    leftRunningAt - killedAt, unregisteredAt == 0 ? -1 : unregisteredAt - killedAt, runningAgainAt - killedAt);
            assertThat(failedAt - killedAt).as("the JobManager noticed the lost TaskManager").isBetween(0L, DETECTION_BOUND_MILLIS);
            assertThat(runningAgainAt).as("the job runs again on the spare TaskManager").isPositive();

            answers.readAtLeast(3 * BATCH, Duration.ofSeconds(180));
            List<AnswerEvent> all = answers.drain(Duration.ofSeconds(3)).stream().map(ConsumerRecord::value)
                    .map(EventJson::parseAnswer).toList();
            Map<String, Long> perRequest = all.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perRequest.keySet()).as("none lost").containsExactlyInAnyOrderElementsOf(
                    questions.stream().map(q -> q.requestId).toList());
            assertThat(perRequest).as("none doubled").allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        }
    }

    /** When the job's latest failure happened, from its exception history (the JobManager's clock, this machine's). */
    private static long failureTimestamp(ScriptedFlinkCluster cluster, String job) {
        JsonNode entries = cluster.get("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries");
        assertThat(entries.size()).as("the job's exception history records the lost TaskManager").isPositive();
        return entries.get(0).path("timestamp").asLong();
    }
}

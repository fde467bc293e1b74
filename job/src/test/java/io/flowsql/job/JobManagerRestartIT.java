package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JobManager of the standalone cluster (deploy/flink-cluster-start.sh with FLINK_HA=zookeeper: a ZooKeeper server
 * of its own, the job graphs and checkpoint pointers under the cluster's ha/ folder) is killed with SIGKILL while the
 * job runs and questions flow, and started again by the same script. The job comes back under its own id, restored
 * from its latest completed checkpoint, and a read_committed reader sees exactly one answer per question sent before,
 * during and after. Printed: the time from the kill to the job running again.
 *
 * <p>Why ZooKeeper: Flink 2.2 ships ZooKeeper and Kubernetes HA services only (no file-based one); the ZooKeeper
 * server comes with Flink itself (flink-shaded-zookeeper-3, already on the cluster's classpath), so nothing else is
 * downloaded. Run by failsafe in the integration-test phase, after the shaded jar is packaged.
 */
class JobManagerRestartIT {
    private static final int BATCH = 10;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @Test
    void aKilledJobManagerStartedAgainResumesTheJobFromItsLatestCheckpoint() throws Exception {
        ClusterItRun run = ClusterItRun.fromSystemProperties("jobmanager-restart");
        assertThat(run.jobJar()).as("the shaded job jar (packaged before the integration tests)").isRegularFile();
        List<QuestionEvent> questions = SpiderQuestions.cycled(run.sharedData(), 3 * BATCH, "mag-sql");

        try (OracleLlm llm = OracleLlm.start(run.sharedData());
                ScriptedFlinkCluster cluster = new ScriptedFlinkCluster(run.projectDir(), run.work().resolve("cluster"),
                        ClusterItRun.mavenCommand(), 2, "1536m").zooKeeperHa();
                TopicReader answers = new TopicReader(KAFKA.bootstrapServers(), JobTopics.ANSWERS)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            cluster.start(1);
            List<String> args = topics.jobConfig(run.sharedData(), llm.baseUrl(), Map.of(JobOptions.PARALLELISM.key(), "2"))
                    .asArguments();
            String job = cluster.submit(run.jobJar(), Optional.empty(), args);
            topics.sendQuestions(questions.subList(0, BATCH));
            assertThat(answers.readAtLeast(BATCH, Duration.ofSeconds(180))).as("answers before the kill").hasSizeGreaterThanOrEqualTo(BATCH);
            long completedBefore = cluster.get("/jobs/" + job + "/checkpoints").path("counts").path("completed").asLong();
            assertThat(completedBefore).as("checkpoints completed before the kill").isPositive();

            long jobManager = cluster.jobManagerPid();
            topics.sendQuestions(questions.subList(BATCH, 2 * BATCH));
            long killedAt = System.currentTimeMillis();
            assertThat(ProcessHandle.of(jobManager).orElseThrow().destroyForcibly()).isTrue();
            ProcessHandle.of(jobManager).ifPresent(p -> p.onExit().join());
            cluster.start(1); // the same script starts a new JobManager; the TaskManager stays
            long restartedAt = System.currentTimeMillis();
            long runningAt = awaitAllRunning(cluster, job, Duration.ofSeconds(240));
            JsonNode restored = cluster.get("/jobs/" + job + "/checkpoints").path("latest").path("restored");
            System.out.printf("[jobmanager-restart] JobManager %d killed; new one started %d ms later; job %s running again %d ms "
                    + "after the kill, restored from checkpoint %s%n", jobManager, restartedAt - killedAt, job,
                    runningAt - killedAt, restored.path("external_path").asText(restored.toString()));
            assertThat(cluster.jobManagerPid()).as("a new JobManager process").isNotEqualTo(jobManager);
            assertThat(restored.path("id").asLong()).as("the job resumed from a completed checkpoint, not from scratch").isPositive();
            assertThat(restored.path("is_savepoint").asBoolean()).isFalse();

            topics.sendQuestions(questions.subList(2 * BATCH, 3 * BATCH));
            answers.readAtLeast(3 * BATCH, Duration.ofSeconds(180));
            List<AnswerEvent> all = answers.drain(Duration.ofSeconds(3)).stream().map(ConsumerRecord::value)
                    .map(EventJson::parseAnswer).toList();
            Map<String, Long> perRequest = all.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            System.out.printf("[jobmanager-restart] sent=%d answered=%d doubled=%d%n", questions.size(), perRequest.size(),
                    perRequest.values().stream().filter(n -> n > 1).count());
            assertThat(perRequest.keySet()).as("none lost").containsExactlyInAnyOrderElementsOf(
                    questions.stream().map(q -> q.requestId).toList());
            assertThat(perRequest).as("none doubled").allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        }
    }

    /** Waits until the job and every one of its tasks run (the new JobManager answers 404 until it has recovered it). */
    private static long awaitAllRunning(ScriptedFlinkCluster cluster, String job, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        String last = "unknown";
        while (System.nanoTime() < deadline) {
            try {
                JsonNode state = cluster.get("/jobs/" + job);
                last = state.path("state").asText();
                boolean allRunning = "RUNNING".equals(last);
                for (JsonNode v : state.path("vertices")) {
                    allRunning &= "RUNNING".equals(v.path("status").asText());
                }
                if (allRunning) {
                    return System.currentTimeMillis();
                }
            } catch (IllegalStateException | java.io.UncheckedIOException notYet) {
                last = notYet.getMessage();
            }
            Thread.sleep(250);
        }
        throw new AssertionError("job " + job + " not running again within " + within + "; last: " + last);
    }
}

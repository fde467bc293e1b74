package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A TaskManager of the standalone cluster (deploy/flink-cluster-start.sh, with its heartbeat settings) is killed with
 * SIGKILL while the job runs on it and questions flow; a spare TaskManager stands by. Measured and printed: the time
 * until the JobManager notices (the failure's time in the job's exception history, and the job leaving RUNNING), until
 * the TaskManager is unregistered, and until every task runs again on the spare. Checked: detection within
 * {@value #DETECTION_BOUND_MILLIS} ms (Flink's default heartbeats took 15.5 s here) and exactly one answer per question
 * (read_committed) across the failover, from the latest checkpoint.
 *
 * <p>The job runs with the changelog (job.state-changelog; the cluster's configuration puts its files beside the
 * checkpoints, in the cluster's folder), so the spare restores the killed TaskManager's state from the changelog files
 * it wrote: the changelog's artifacts are on the cluster's classpath and its restore works across TaskManagers.
 *
 * <p>Run by failsafe in the integration-test phase, after the shaded jar is packaged (in .ci/run by surefire, on the
 * jar it packages first: profile cluster-tests-in-surefire).
 */
class TaskManagerLossIT {
    /** heartbeat.interval 2 s × heartbeat.rpc-failure-threshold 2, plus a loaded machine's slack. */
    private static final long DETECTION_BOUND_MILLIS = 8_000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @Test
    void aKilledTaskManagerIsNoticedInSecondsAndTheJobFailsOverWithoutLossOrDuplicates() throws Exception {
        // no materialization within the test's two minutes: the restore replays the log alone, and its files stay
        Map<String, String> changelog = Map.of(JobOptions.STATE_CHANGELOG.key(), "true",
                JobOptions.STATE_MATERIALIZE_INTERVAL.key(), "10min");
        long startedAt = System.currentTimeMillis();
        try (ClusterFailoverRun run = new ClusterFailoverRun("taskmanager-loss", KAFKA.bootstrapServers(), c -> c, changelog)) {
            ScriptedFlinkCluster cluster = run.cluster;
            String job = run.job();
            // the spare TaskManager starts while the job answers the first batch (the job's tasks all run on TaskManager 1
            // already: it was submitted to a cluster of one and runs)
            run.answerFirstBatch(() -> cluster.start(2));
            long victim = cluster.taskManagerPid(1);
            run.sendBatch(1);
            long killedAt = System.currentTimeMillis();
            assertThat(ProcessHandle.of(victim).orElseThrow().destroyForcibly()).isTrue();

            long leftRunningAt = 0;
            long unregisteredAt = 0;
            long runningAgainAt = 0;
            long deadline = killedAt + 180_000;
            while (System.currentTimeMillis() < deadline && runningAgainAt == 0) {
                boolean allRunning = ClusterFailoverRun.allRunning(cluster.get("/jobs/" + job));
                long now = System.currentTimeMillis();
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
            System.out.printf("[taskmanager-loss] kill -9 of TaskManager %d: failure recorded after %d ms, a task left RUNNING after %d ms, "
                    + "TaskManager unregistered after %d ms, every task running again after %d ms%n", victim, failedAt - killedAt,
                    leftRunningAt - killedAt, unregisteredAt == 0 ? -1 : unregisteredAt - killedAt, runningAgainAt - killedAt);
            assertThat(failedAt - killedAt).as("the JobManager noticed the lost TaskManager").isBetween(0L, DETECTION_BOUND_MILLIS);
            assertThat(runningAgainAt).as("the job runs again on the spare TaskManager").isPositive();

            run.sendLastBatchAndCheckExactlyOnce();
            try (Stream<Path> files = Files.walk(cluster.dir().resolve("changelog"))) {
                assertThat(files.filter(f -> Files.isRegularFile(f) && f.toFile().lastModified() >= startedAt).count())
                        .as("the running job's changelog files, written by this run").isPositive();
            }
        }
    }

    /** When the job's latest failure happened, from its exception history (the JobManager's clock, this machine's). */
    private static long failureTimestamp(ScriptedFlinkCluster cluster, String job) {
        JsonNode entries = cluster.get("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries");
        assertThat(entries.size()).as("the job's exception history records the lost TaskManager").isPositive();
        return entries.get(0).path("timestamp").asLong();
    }
}

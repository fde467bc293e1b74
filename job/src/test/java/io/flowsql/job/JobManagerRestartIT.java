package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JobManager of the standalone cluster (deploy/flink-cluster-start.sh with FLINK_HA=zookeeper: a ZooKeeper server
 * of its own, the job graphs and checkpoint pointers under the cluster's ha/ folder) is killed with SIGKILL while the
 * job runs and questions flow, and started again by the same script. The job comes back under its own id, restored
 * from its latest completed checkpoint, and a read_committed reader sees exactly one answer per question sent before,
 * during and after. Printed: the time from the kill to the new leader knowing the job, and to the job running again.
 *
 * <p>Why ZooKeeper: Flink 2.2 ships ZooKeeper and Kubernetes HA services only (no file-based one); the ZooKeeper
 * server comes with Flink itself (flink-shaded-zookeeper-3, already on the cluster's classpath), so nothing else is
 * downloaded. Run by failsafe in the integration-test phase, after the shaded jar is packaged (in .ci/run by
 * surefire, on the jar it packages first: profile cluster-tests-in-surefire).
 */
class JobManagerRestartIT {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @Test
    void aKilledJobManagerStartedAgainResumesTheJobFromItsLatestCheckpoint() throws Exception {
        try (ClusterFailoverRun run = new ClusterFailoverRun("jobmanager-restart", KAFKA.bootstrapServers(),
                ScriptedFlinkCluster::zooKeeperHa)) {
            ScriptedFlinkCluster cluster = run.cluster;
            String job = run.job();
            run.answerFirstBatch();
            long completedBefore = cluster.get("/jobs/" + job + "/checkpoints").path("counts").path("completed").asLong();
            assertThat(completedBefore).as("checkpoints completed before the kill").isPositive();

            long jobManager = cluster.jobManagerPid();
            run.sendBatch(1);
            long killedAt = System.currentTimeMillis();
            assertThat(ProcessHandle.of(jobManager).orElseThrow().destroyForcibly()).isTrue();
            ProcessHandle.of(jobManager).ifPresent(p -> p.onExit().join());
            cluster.start(1); // the same script starts a new JobManager; the TaskManager stays
            long restartedAt = System.currentTimeMillis();
            long[] recovered = awaitAllRunning(cluster, job, Duration.ofSeconds(240));
            JsonNode restored = cluster.get("/jobs/" + job + "/checkpoints").path("latest").path("restored");
            System.out.printf("[jobmanager-restart] JobManager %d killed; new one started %d ms later; job %s recovered by the "
                    + "new leader %d ms and running again %d ms after the kill, restored from checkpoint %s%n", jobManager,
                    restartedAt - killedAt, job, recovered[0] - killedAt, recovered[1] - killedAt,
                    restored.path("external_path").asText(restored.toString()));
            assertThat(cluster.jobManagerPid()).as("a new JobManager process").isNotEqualTo(jobManager);
            // ZooKeeper, the new JobManager and the TaskManager: all with the tests' cheaper JIT and collector
            assertThat(cluster.processes()).containsKey("zookeeper");
            ClusterItRun.assertClusterJvmsGetTheTestFlags(cluster);
            assertThat(restored.path("id").asLong()).as("the job resumed from a completed checkpoint, not from scratch").isPositive();
            assertThat(restored.path("is_savepoint").asBoolean()).isFalse();

            run.sendLastBatchAndCheckExactlyOnce();
        }
    }

    /**
     * Waits until the job and every one of its tasks run (the new JobManager answers 404 until it has recovered it);
     * returns when the new leader first knew the job (its graph recovered from HA) and when all of it ran.
     */
    private static long[] awaitAllRunning(ScriptedFlinkCluster cluster, String job, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        String last = "unknown";
        long knownAt = 0;
        while (System.nanoTime() < deadline) {
            try {
                JsonNode state = cluster.get("/jobs/" + job);
                knownAt = knownAt == 0 ? System.currentTimeMillis() : knownAt;
                last = state.path("state").asText();
                if (ClusterFailoverRun.allRunning(state)) {
                    return new long[] {knownAt, System.currentTimeMillis()};
                }
            } catch (IllegalStateException | java.io.UncheckedIOException notYet) {
                last = notYet.getMessage();
            }
            Thread.sleep(250);
        }
        throw new AssertionError("job " + job + " not running again within " + within + "; last: " + last);
    }
}

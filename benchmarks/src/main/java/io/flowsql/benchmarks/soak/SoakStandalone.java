package io.flowsql.benchmarks.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.job.JobConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The soak's Flink as separate processes: the standalone session cluster of deploy/flink-cluster-start.sh (its
 * shipped restart strategy and heartbeats) with JobManager HA on ZooKeeper ({@link ScriptedFlinkCluster#zooKeeperHa}),
 * {@value #TASK_MANAGERS} TaskManagers of {@value #SLOTS} slots, the shaded job jar submitted by deploy/flink-submit.sh.
 * A TaskManager or the JobManager is killed with SIGKILL and started again by the same script; the JobManager's
 * successor recovers the job from ZooKeeper and its latest completed checkpoint. Figures and failovers come from the
 * REST API.
 */
final class SoakStandalone implements SoakCluster {
    static final int TASK_MANAGERS = 2;
    static final int SLOTS = 2;
    private static final Duration BACK_WITHIN = Duration.ofMinutes(4);

    private final ScriptedFlinkCluster cluster;
    private final Path jobJar;
    private String job;

    private SoakStandalone(ScriptedFlinkCluster cluster, Path jobJar) {
        this.cluster = cluster;
        this.jobJar = jobJar;
    }

    /** Starts the cluster under {@code dir}; the shaded job jar must have been built (mvn -pl job -am package). */
    static SoakStandalone start(Path projectDir, Path dir) {
        Path jar = projectDir.resolve("job/target/flowsql-job-0.1.0-SNAPSHOT.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the shaded job jar first (mvn -o -q -B -pl job -am package -DskipTests): " + jar);
        }
        ScriptedFlinkCluster cluster = new ScriptedFlinkCluster(projectDir, dir,
                System.getenv().getOrDefault("MVN", "mvn") + " -B -q", SLOTS, "1536m").zooKeeperHa();
        try {
            // one TaskManager at a time, and once more if the script gave up: under a load average of 50 on two cores a
            // TaskManager's remoting start (Pekko's own 10 s limit) fails now and then (deploy/flink-cluster-start.sh)
            for (int n = 1; n <= TASK_MANAGERS; n++) {
                startOrRetry(cluster, n);
            }
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return new SoakStandalone(cluster, jar);
    }

    private static void startOrRetry(ScriptedFlinkCluster cluster, int taskManagers) {
        try {
            cluster.start(taskManagers);
        } catch (IllegalStateException e) {
            System.out.printf("the cluster did not start %d TaskManager(s) (%s); once more%n", taskManagers,
                    e.getMessage().lines().findFirst().orElse(""));
            cluster.start(taskManagers);
        }
    }

    @Override
    public void submit(JobConfig config, String name) {
        job = cluster.submit(jobJar, Optional.empty(), config.asArguments());
    }

    @Override
    public String killTaskManager(Random random) throws InterruptedException {
        Map<Integer, Integer> tasks = tasksPerTaskManager();
        int victim = 1 + random.nextInt(TASK_MANAGERS);
        for (int n = 1; n <= TASK_MANAGERS; n++) {
            if (tasks.getOrDefault(n, 0) > tasks.getOrDefault(victim, 0)) {
                victim = n;
            }
        }
        long pid = cluster.taskManagerPid(victim);
        kill(pid);
        startOrRetry(cluster, TASK_MANAGERS);
        return "TaskManager " + victim + " (pid " + pid + ", " + tasks.getOrDefault(victim, 0) + " tasks) kill -9, started"
                + " again as pid " + cluster.taskManagerPid(victim);
    }

    /**
     * The job's subtasks per TaskManager number (the start script names TaskManager n {@code flowsql-tm-n}); empty if
     * the REST API does not say.
     */
    private Map<Integer, Integer> tasksPerTaskManager() {
        Map<Integer, Integer> out = new HashMap<>();
        try {
            for (JsonNode vertex : cluster.get("/jobs/" + job).path("vertices")) {
                JsonNode perTm = cluster.get("/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/taskmanagers");
                for (JsonNode tm : perTm.path("taskmanagers")) {
                    String id = tm.path("taskmanager-id").asText();
                    if (id.startsWith("flowsql-tm-")) {
                        int running = tm.path("status-counts").path("RUNNING").asInt(0);
                        out.merge(Integer.parseInt(id.substring("flowsql-tm-".length())), running, Integer::sum);
                    }
                }
            }
        } catch (RuntimeException e) {
            System.out.println("which TaskManager runs the tasks is not known (" + e.getMessage() + "): a random one is killed");
        }
        return out;
    }

    @Override
    public boolean jobManagerCanDie() {
        return true;
    }

    @Override
    public String killJobManager() throws InterruptedException {
        long pid = cluster.jobManagerPid();
        long killedAt = System.nanoTime();
        kill(pid);
        startOrRetry(cluster, TASK_MANAGERS);
        long startedAt = System.nanoTime();
        long runningAt = awaitAllRunning();
        JsonNode restored = cluster.get("/jobs/" + job + "/checkpoints").path("latest").path("restored");
        return String.format("JobManager (pid %d) kill -9, new one (pid %d) started in %d ms, job running again %d ms after"
                        + " the kill, restored from checkpoint %s", pid, cluster.jobManagerPid(),
                TimeUnit.NANOSECONDS.toMillis(startedAt - killedAt), TimeUnit.NANOSECONDS.toMillis(runningAt - killedAt),
                restored.path("id").asText("none"));
    }

    private static void kill(long pid) throws InterruptedException {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isPresent()) {
            process.get().destroyForcibly();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (process.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
    }

    /** Waits until the job and every task run again (the new JobManager answers 404 until it has recovered the job). */
    private long awaitAllRunning() throws InterruptedException {
        long deadline = System.nanoTime() + BACK_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                JsonNode state = cluster.get("/jobs/" + job);
                boolean all = "RUNNING".equals(state.path("state").asText()) && state.path("vertices").size() > 0;
                for (JsonNode v : state.path("vertices")) {
                    all &= "RUNNING".equals(v.path("status").asText());
                }
                if (all) {
                    return System.nanoTime();
                }
            } catch (IllegalStateException | java.io.UncheckedIOException notYet) {
                // not recovered yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("job " + job + " not running again within " + BACK_WITHIN);
    }

    @Override
    public long lastFailoverMillis() {
        try {
            JsonNode exceptions = cluster.get("/jobs/" + job + "/exceptions");
            long latest = exceptions.path("timestamp").asLong(0);
            for (JsonNode entry : exceptions.path("exceptionHistory").path("entries")) {
                latest = Math.max(latest, entry.path("timestamp").asLong(0));
            }
            return latest;
        } catch (RuntimeException e) {
            return 0;
        }
    }

    @Override
    public String checkpointLine() {
        try {
            JsonNode stats = cluster.get("/jobs/" + job + "/checkpoints");
            JsonNode counts = stats.path("counts");
            JsonNode latest = stats.path("latest").path("completed");
            JsonNode summary = stats.path("summary");
            return String.format("checkpoints completed=%d failed=%d restored=%d latest: duration=%s ms state=%s KB"
                            + " checkpointed=%s KB; all completed: max=%d ms mean=%d ms state max=%d KB",
                    counts.path("completed").asLong(), counts.path("failed").asLong(), counts.path("restored").asLong(),
                    latest.isMissingNode() || latest.isNull() ? "n/a" : latest.path("end_to_end_duration").asText(),
                    latest.isMissingNode() || latest.isNull() ? "n/a" : Long.toString(latest.path("state_size").asLong() >> 10),
                    latest.isMissingNode() || latest.isNull() ? "n/a" : Long.toString(latest.path("checkpointed_size").asLong() >> 10),
                    summary.path("end_to_end_duration").path("max").asLong(), summary.path("end_to_end_duration").path("avg").asLong(),
                    summary.path("state_size").path("max").asLong() >> 10);
        } catch (RuntimeException e) {
            return "checkpoints: statistics not available (" + e.getMessage() + ")";
        }
    }

    @Override
    public List<ProcessFigures> processes() {
        List<ProcessFigures> out = new ArrayList<>();
        try {
            out.add(ProcessFigures.ofProcess("jobmanager", cluster.jobManagerPid()));
            for (int n = 1; n <= TASK_MANAGERS; n++) {
                out.add(ProcessFigures.ofProcess("taskmanager-" + n, cluster.taskManagerPid(n)));
            }
        } catch (RuntimeException e) {
            // a PID file missing while a process restarts: the figures of those found
        }
        return out;
    }

    @Override
    public void close() {
        try {
            if (job != null) {
                cluster.cancel(job);
            }
        } finally {
            cluster.close();
        }
    }
}

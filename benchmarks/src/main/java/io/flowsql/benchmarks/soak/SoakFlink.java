package io.flowsql.benchmarks.soak;

import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.executiongraph.ErrorInfo;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.taskexecutor.TaskExecutor;
import org.apache.flink.runtime.taskmanager.TaskManagerLocation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The soak's Flink: a MiniCluster in this JVM with {@value #TASK_MANAGERS} TaskManagers of {@value #SLOTS} slots, the
 * shipped restart strategy (exponential delay, 1 s doubling to 30 s, reset after a minute without failure, as
 * deploy/flink-cluster-start.sh), the production job on it; a TaskManager can be terminated (its tasks fail and the job
 * restarts from its latest checkpoint on the slots left) and a new one started, and the checkpoints' duration and
 * size are read from the job's statistics.
 */
final class SoakFlink implements SoakCluster {
    static final int TASK_MANAGERS = 2;
    static final int SLOTS = 2;

    private final MiniCluster cluster;
    private final List<Integer> alive = new ArrayList<>();
    private int started = TASK_MANAGERS;
    private JobID job;

    private SoakFlink(MiniCluster cluster) {
        this.cluster = cluster;
        for (int i = 0; i < TASK_MANAGERS; i++) {
            alive.add(i);
        }
    }

    static SoakFlink start() throws Exception {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(64));
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(TASK_MANAGERS).setNumSlotsPerTaskManager(SLOTS).withRandomPorts().build());
        cluster.start();
        return new SoakFlink(cluster);
    }

    @Override
    public void submit(JobConfig config, String name) throws Exception {
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(new Configuration());
        FlowSqlJob.configure(env, config);
        Configuration restarts = new Configuration();
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, Duration.ofSeconds(1));
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, Duration.ofSeconds(30));
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, 2.0);
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, Duration.ofMinutes(1));
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, 0.1);
        env.configure(restarts);
        FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(name);
        job = cluster.submitJob(graph.getJobGraph()).get(2, TimeUnit.MINUTES).getJobID();
    }

    /**
     * Terminates the live TaskManager that runs most of the job's tasks (a random live one if none can be told: a
     * TaskManager without tasks is no fault) and starts a new one in its place; returns what it did.
     */
    @Override
    public synchronized String killTaskManager(Random random) throws Exception {
        Map<Integer, Integer> tasks = tasksPerTaskManager();
        int victim = alive.stream().max(Comparator.comparingInt((Integer tm) -> tasks.getOrDefault(tm, 0))
                .thenComparingInt(tm -> random.nextInt(1000))).orElseThrow();
        alive.remove(Integer.valueOf(victim));
        cluster.terminateTaskManager(victim).get(2, TimeUnit.MINUTES);
        cluster.startTaskManager();
        alive.add(started++);
        return "TaskManager " + victim + " (" + tasks.getOrDefault(victim, 0) + " tasks) terminated, TaskManager "
                + (started - 1) + " started";
    }

    /**
     * The job's tasks per TaskManager, by the index {@link MiniCluster#terminateTaskManager} takes. The MiniCluster
     * does not say which index is which TaskManager, so its list is read by reflection (a benchmark's shortcut); empty
     * if that fails.
     */
    @SuppressWarnings("unchecked")
    private Map<Integer, Integer> tasksPerTaskManager() {
        Map<Integer, Integer> out = new HashMap<>();
        try {
            Field field = MiniCluster.class.getDeclaredField("taskManagers");
            field.setAccessible(true);
            List<TaskExecutor> executors = new ArrayList<>((List<TaskExecutor>) field.get(cluster));
            Map<ResourceID, Integer> byResource = new HashMap<>();
            for (AccessExecutionVertex vertex : cluster.getExecutionGraph(job).get(30, TimeUnit.SECONDS).getAllExecutionVertices()) {
                TaskManagerLocation location = vertex.getCurrentExecutionAttempt().getAssignedResourceLocation();
                if (location != null) {
                    byResource.merge(location.getResourceID(), 1, Integer::sum);
                }
            }
            for (int i = 0; i < executors.size(); i++) {
                out.put(i, byResource.getOrDefault(executors.get(i).getResourceID(), 0));
            }
        } catch (Exception | LinkageError e) {
            System.out.println("which TaskManager runs the tasks is not known (" + e + "): a random one is terminated");
        }
        return out;
    }

    /**
     * When the job last failed over (a task failure or a global failure that restarted tasks), wall-clock millis; 0 if
     * it never did or the graph is not available.
     */
    @Override
    public long lastFailoverMillis() {
        try {
            ErrorInfo failure = cluster.getExecutionGraph(job).get(30, TimeUnit.SECONDS).getFailureInfo();
            return failure == null ? 0 : failure.getTimestamp();
        } catch (Exception e) {
            return 0;
        }
    }

    /**
     * The job's checkpoints so far: counts, the latest completed one's duration and sizes, and the slowest and mean
     * duration of all completed ones.
     */
    @Override
    public String checkpointLine() {
        try {
            CheckpointStatsSnapshot stats = cluster.getExecutionGraph(job).get(30, TimeUnit.SECONDS).getCheckpointStatsSnapshot();
            CompletedCheckpointStats latest = stats.getHistory().getLatestCompletedCheckpoint();
            var durations = stats.getSummaryStats().getEndToEndDurationStats();
            return String.format("checkpoints completed=%d failed=%d restored=%d latest: duration=%s ms state=%s KB"
                            + " checkpointed=%s KB; all completed: max=%d ms mean=%d ms state max=%d KB",
                    stats.getCounts().getNumberOfCompletedCheckpoints(), stats.getCounts().getNumberOfFailedCheckpoints(),
                    stats.getCounts().getNumberOfRestoredCheckpoints(),
                    latest == null ? "n/a" : Long.toString(latest.getEndToEndDuration()),
                    latest == null ? "n/a" : Long.toString(latest.getStateSize() >> 10),
                    latest == null ? "n/a" : Long.toString(latest.getCheckpointedSize() >> 10),
                    durations.getMaximum(), durations.getAverage(),
                    stats.getSummaryStats().getStateSizeStats().getMaximum() >> 10);
        } catch (Exception e) {
            return "checkpoints: statistics not available (" + e + ")";
        }
    }

    @Override
    public boolean jobManagerCanDie() {
        return false;
    }

    @Override
    public String killJobManager() {
        throw new UnsupportedOperationException("the MiniCluster's JobManager is this JVM: run the soak with --cluster standalone");
    }

    @Override
    public List<ProcessFigures> processes() {
        return List.of();
    }

    @Override
    public void close() throws Exception {
        try {
            if (job != null) {
                cluster.cancelJob(job).get(60, TimeUnit.SECONDS);
            }
        } finally {
            cluster.close();
        }
    }
}

package io.flowsql.benchmarks.soak;

import io.flowsql.job.JobConfig;

import java.util.List;
import java.util.Random;

/**
 * Where the soak's job runs: a MiniCluster in the benchmark's JVM ({@link SoakFlink}) or the scripted standalone cluster
 * with JobManager HA ({@link SoakStandalone}), each able to lose a TaskManager, the standalone one its JobManager too.
 */
interface SoakCluster extends AutoCloseable {

    /** Submits the production job of {@code config} (Kafka sources and sinks). */
    void submit(JobConfig config, String name) throws Exception;

    /** Ends a TaskManager abruptly and brings the cluster back to its TaskManagers; returns what it did. */
    String killTaskManager(Random random) throws Exception;

    /** Whether {@link #killJobManager} can be injected (a JobManager outside this JVM, with HA). */
    boolean jobManagerCanDie();

    /** kill -9 of the JobManager, a new one started, and the job running again; returns what it did and how long. */
    String killJobManager() throws Exception;

    /** When the job last failed over, wall-clock millis; 0 if never or not known. */
    long lastFailoverMillis();

    /** The job's checkpoint counts, durations and sizes so far, as one line. */
    String checkpointLine();

    /** The cluster's processes outside this JVM (none for a MiniCluster). */
    List<ProcessFigures> processes();
}

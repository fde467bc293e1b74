package io.flowsql.job;

/**
 * Whether keyed state goes through Flink's changelog (job.state-changelog). The constants are the values a user writes
 * ({@code auto}, {@code true}, {@code false}; Flink reads enum values without regard to case), so the option's
 * earlier boolean spellings keep their meaning.
 */
public enum StateChangelogChoice {
    /**
     * On where the job's own configuration is the TaskManager's and the changelog pays: an in-process run ({@code
     * --local}, the benchmarks) whose keyed state is on the heap and that has job.checkpoint-dir. Off otherwise: with
     * RocksDB a checkpoint is already incremental, and on a cluster the log's folder is the TaskManagers' setting
     * ({@code state.changelog.*}), which the job cannot see. The default.
     */
    AUTO,
    /** On: needs a checkpoint folder (job.checkpoint-dir or the cluster's) and, on a cluster, the TaskManagers' settings. */
    TRUE,
    /** Off: every checkpoint of heap state writes all of it. */
    FALSE
}

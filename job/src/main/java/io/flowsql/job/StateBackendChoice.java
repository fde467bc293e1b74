package io.flowsql.job;

/**
 * Where the job keeps its keyed state (job.state-backend). The state that lives long — every dialogue's history for
 * dialogue.history-ttl, every request id for requests.id-ttl — grows with the questions of a whole day, so it decides
 * what a checkpoint costs.
 */
public enum StateBackendChoice {
    /**
     * RocksDB on the TaskManager's local disk with incremental checkpoints: a checkpoint uploads only the files written
     * since the last one, so its cost follows the state that changed, not the state that exists (the default).
     */
    ROCKSDB,
    /**
     * Objects on the JVM heap: every checkpoint writes all of the state again, so its cost grows with a day of
     * dialogues and request ids (for tests and short runs).
     */
    HASHMAP
}

package io.flowsql.job;

/**
 * Where the job keeps its keyed state (job.state-backend). The state that lives long — every dialogue's history for
 * dialogue.history-ttl, every request id for requests.id-ttl — grows with the questions of a whole day, so it decides
 * what a checkpoint costs.
 */
public enum StateBackendChoice {
    /**
     * Whatever the Flink cluster's configuration says ({@code state.backend.type}; Flink's own default is the heap):
     * the shipped cluster configurations (the local cluster's, the Kubernetes manifest) choose RocksDB with incremental
     * checkpoints, an in-process run (tests, benchmarks, {@code --local}) gets the heap. The default.
     */
    CLUSTER,
    /**
     * RocksDB on the TaskManager's local disk with incremental checkpoints: a checkpoint uploads only the files written
     * since the last one, so its cost follows the state that changed, not the state that exists; each write and read
     * serializes, and every checkpoint flushes RocksDB's write buffers.
     */
    ROCKSDB,
    /**
     * Objects on the JVM heap: no serialization per record, but every checkpoint writes all of the state again, so its
     * cost grows with a day of dialogues and request ids.
     */
    HASHMAP
}

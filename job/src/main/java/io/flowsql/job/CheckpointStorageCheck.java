package io.flowsql.job;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateChangelogOptions;

import java.util.Optional;

/**
 * Where the job's checkpoints go and what they write, and the warnings the job logs at start: when checkpoints are not
 * durable (by default Flink keeps them in the JobManager's memory, so a JobManager failure loses them, and with them
 * the exactly-once guarantee across that failure), and when keyed state is on the heap.
 */
final class CheckpointStorageCheck {
    private CheckpointStorageCheck() {}

    /**
     * The warning for the effective Flink configuration (the cluster's, with the job's settings applied), or empty
     * when checkpoints go to a folder or URI ({@code execution.checkpointing.dir}, set by {@code job.checkpoint-dir} or
     * by the cluster) and the storage is not forced to the JobManager.
     */
    static Optional<String> warning(ReadableConfig flink) {
        String storage = flink.getOptional(CheckpointingOptions.CHECKPOINT_STORAGE).orElse("");
        String dir = flink.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY).orElse("").strip();
        if (!dir.isEmpty() && !"jobmanager".equalsIgnoreCase(storage)) {
            return Optional.empty();
        }
        String where = dir.isEmpty() ? "no execution.checkpointing.dir (job.checkpoint-dir) is set"
                : "execution.checkpointing.storage is 'jobmanager'";
        return Optional.of("Exactly-once answers without durable checkpoint storage: " + where + ", so checkpoints live in "
                + "the JobManager's memory. If the JobManager fails, the job restarts without its state: dialogue history, held "
                + "turns and questions in flight are lost, and questions read after the last committed offsets are answered "
                + "again. Set job.checkpoint-dir to durable storage (s3://, hdfs://, a volume every Flink process shares).");
    }

    /**
     * The warning for keyed state on the heap (the effective {@code state.backend.type} is not RocksDB) without the
     * changelog: every checkpoint then writes all of it, and it holds a day of dialogue histories and request ids;
     * empty with RocksDB or with the changelog (a checkpoint then writes only what changed).
     */
    static Optional<String> heapStateWarning(ReadableConfig flink) {
        String backend = flink.get(StateBackendOptions.STATE_BACKEND);
        if ("rocksdb".equalsIgnoreCase(backend) || flink.get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)) {
            return Optional.empty();
        }
        return Optional.of("Keyed state on the JVM heap (state.backend.type " + backend + "): every checkpoint writes all "
                + "of it, and it holds a day of dialogue histories and request ids (dialogue.history-ttl, requests.id-ttl). "
                + "For a job that runs for days set job.state-changelog=true with job.checkpoint-dir, or "
                + "job.state-backend=rocksdb, or the cluster's state.backend.type: rocksdb (docs/OPERATIONS.md).");
    }
}

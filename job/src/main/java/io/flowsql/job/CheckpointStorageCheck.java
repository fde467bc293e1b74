package io.flowsql.job;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;

import java.util.Optional;

/**
 * Where the job's checkpoints go, and the warning the job logs at start when that is not durable: by default Flink
 * keeps checkpoints in the JobManager's memory, so a JobManager failure loses them, and with them the exactly-once
 * guarantee across that failure.
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
}

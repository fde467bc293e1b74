package io.flowsql.job;

import org.apache.flink.changelog.fs.FsStateChangelogOptions;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateChangelogOptions;

/**
 * Flink's changelog for the keyed state (job.state-changelog, on by default for an in-process job with heap state and
 * a checkpoint folder): every state change is also appended to a log, so a
 * checkpoint uploads only what changed since the last one, and the whole state is written again only every
 * job.state-materialize-interval. On the heap backend a checkpoint otherwise writes every kept request id and dialogue
 * turn (a day of them) twice a second.
 *
 * <p>Switching it on is the job's choice; where the log's files go is the TaskManagers' ({@code state.changelog.storage},
 * {@code state.changelog.dstl.dfs.base-path} in their configuration: the shipped cluster configurations put them beside
 * the checkpoints). The job sets the same two options to {@code <checkpoint folder>/changelog}, which is what an
 * in-process run (a local environment, whose TaskManager takes the job's configuration) uses.
 */
final class StateChangelog {
    static final String STORAGE = "filesystem";

    private StateChangelog() {
    }

    /**
     * Adds the changelog's options to {@code conf} when the job asks for it, or, with {@code auto}, when {@link
     * #pays} says so. The folder is job.checkpoint-dir, or else the environment's checkpoint folder ({@code environment}:
     * a cluster's configuration as the client reads it); asked for with neither, the option is refused: the log would
     * have nowhere every TaskManager can read after a failure.
     */
    static void configure(Configuration conf, JobConfig config, ReadableConfig environment, boolean inProcess) {
        StateChangelogChoice choice = config.get(JobOptions.STATE_CHANGELOG);
        if (choice == StateChangelogChoice.FALSE
                || choice == StateChangelogChoice.AUTO && !pays(conf, config, environment, inProcess)) {
            return;
        }
        String dir = config.get(JobOptions.CHECKPOINT_DIR);
        if (dir.isBlank()) {
            dir = environment.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY).orElse("");
        }
        if (dir.isBlank()) {
            throw new IllegalArgumentException(JobOptions.STATE_CHANGELOG.key() + "=true needs " + JobOptions.CHECKPOINT_DIR.key()
                    + " (or the cluster's execution.checkpointing.dir): the changelog is written beside the checkpoints, "
                    + "where every TaskManager can read it after a failure");
        }
        conf.set(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG, true);
        conf.set(StateChangelogOptions.STATE_CHANGE_LOG_STORAGE, STORAGE);
        // flink-dstl-dfs is the cluster's (provided): named only here, once the changelog is asked for
        conf.set(FsStateChangelogOptions.BASE_PATH, folder(dir));
        conf.set(StateChangelogOptions.PERIODIC_MATERIALIZATION_INTERVAL, config.get(JobOptions.STATE_MATERIALIZE_INTERVAL));
    }

    /**
     * Whether {@code auto} turns the changelog on: only in-process (the job's configuration is then its TaskManager's,
     * so the log's folder is the one the job names; on a cluster it is the TaskManagers' own setting), only with
     * job.checkpoint-dir (the log goes beside the checkpoints), and only for keyed state on the heap (the job's
     * job.state-backend, else the environment's state.backend.type; RocksDB's checkpoints are already incremental).
     */
    static boolean pays(ReadableConfig conf, JobConfig config, ReadableConfig environment, boolean inProcess) {
        if (!inProcess || config.get(JobOptions.CHECKPOINT_DIR).isBlank()) {
            return false;
        }
        String backend = conf.getOptional(StateBackendOptions.STATE_BACKEND)
                .orElseGet(() -> environment.get(StateBackendOptions.STATE_BACKEND));
        return !"rocksdb".equalsIgnoreCase(backend);
    }

    /** {@code <checkpoint dir>/changelog}. */
    static String folder(String checkpointDir) {
        return checkpointDir.replaceAll("/+$", "") + "/changelog";
    }
}

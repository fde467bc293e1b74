package io.flowsql.job;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.changelog.fs.FsStateChangelogOptions;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateChangelogOptions;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FlowSqlJob#configure} sets what state depends on for its whole life: the max parallelism (the number of key
 * groups) from {@code job.max-parallelism}, and generic types off, so a type without a Flink serializer fails when
 * the job is built instead of falling back to Kryo (whose state cannot evolve).
 */
class FlowSqlJobConfigureTest {

    /** Not a POJO (no default constructor): Flink's type extraction makes it a generic type. */
    static final class NotAPojo {
        final String value;

        NotAPojo(String value) {
            this.value = value;
        }
    }

    private static StreamExecutionEnvironment configured(JobConfig config) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
        FlowSqlJob.configure(env, config);
        return env;
    }

    @Test
    void maxParallelismIsTheOptionsValueByDefaultAndWhenSet() {
        StreamExecutionEnvironment fresh = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
        int unset = fresh.getMaxParallelism();

        StreamExecutionEnvironment byDefault = configured(JobConfig.defaults());
        assertThat(byDefault.getMaxParallelism()).isEqualTo(JobOptions.MAX_PARALLELISM.defaultValue())
                .isEqualTo(128).isNotEqualTo(unset);

        StreamExecutionEnvironment overridden = configured(JobConfig.of(Map.of(JobOptions.MAX_PARALLELISM.key(), "512")));
        assertThat(overridden.getMaxParallelism()).isEqualTo(512);
        assertThat(overridden.getConfig().getMaxParallelism()).isEqualTo(512);
    }

    @Test
    void genericTypesAreDisabledSoATypeWithoutAFlinkSerializerFails() {
        TypeInformation<NotAPojo> generic = TypeInformation.of(NotAPojo.class);
        StreamExecutionEnvironment fresh = StreamExecutionEnvironment.createLocalEnvironment(new Configuration());
        assertThat(fresh.getConfig().getSerializerConfig().hasGenericTypesDisabled())
                .as("Flink's default, which the job must change").isFalse();
        assertThat(generic.createSerializer(fresh.getConfig().getSerializerConfig())).isNotNull(); // Kryo

        StreamExecutionEnvironment env = configured(JobConfig.defaults());
        assertThat(env.getConfiguration().get(PipelineOptions.GENERIC_TYPES)).isFalse();
        assertThat(env.getConfig().getSerializerConfig().hasGenericTypesDisabled()).isTrue();
        assertThatThrownBy(() -> generic.createSerializer(env.getConfig().getSerializerConfig()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Generic types have been disabled");
    }

    @Test
    void theStateBackendIsTheClustersUnlessTheJobAsksForRocksDbOrTheHeap() {
        StreamExecutionEnvironment byDefault = configured(JobConfig.defaults());
        assertThat(byDefault.getConfiguration().getOptional(StateBackendOptions.STATE_BACKEND))
                .as("left to the cluster's configuration").isEmpty();

        StreamExecutionEnvironment rocksdb = configured(JobConfig.of(Map.of(JobOptions.STATE_BACKEND.key(), "rocksdb")));
        assertThat(rocksdb.getConfiguration().get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
        assertThat(rocksdb.getConfiguration().get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
        assertThat(rocksdb.getConfiguration().get(RocksDBOptions.TIMER_SERVICE_FACTORY))
                .isEqualTo(EmbeddedRocksDBStateBackend.PriorityQueueStateType.HEAP);

        StreamExecutionEnvironment heap = configured(JobConfig.of(Map.of(JobOptions.STATE_BACKEND.key(), "hashmap")));
        assertThat(heap.getConfiguration().get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
    }

    @Test
    void theChangelogIsOffWithoutACheckpointFolderAndWhenAskedForWritesBesideTheCheckpoints() {
        assertThat(configured(JobConfig.defaults()).getConfiguration().getOptional(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG))
                .as("no checkpoint folder: Flink's own default, off").isEmpty();

        StreamExecutionEnvironment changelog = configured(JobConfig.of(Map.of(JobOptions.STATE_CHANGELOG.key(), "true",
                JobOptions.CHECKPOINT_DIR.key(), "file:///var/flowsql/checkpoints/", JobOptions.STATE_MATERIALIZE_INTERVAL.key(), "3min")));
        assertThat(changelog.getConfiguration().get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isTrue();
        assertThat(changelog.getConfiguration().get(StateChangelogOptions.STATE_CHANGE_LOG_STORAGE)).isEqualTo("filesystem");
        assertThat(changelog.getConfiguration().get(FsStateChangelogOptions.BASE_PATH))
                .isEqualTo("file:///var/flowsql/checkpoints/changelog");
        assertThat(changelog.getConfiguration().get(StateChangelogOptions.PERIODIC_MATERIALIZATION_INTERVAL))
                .isEqualTo(Duration.ofMinutes(3));

        StreamExecutionEnvironment onCluster = StreamExecutionEnvironment.createLocalEnvironment(Configuration.fromMap(
                Map.of(CheckpointingOptions.CHECKPOINTS_DIRECTORY.key(), "s3://bucket/checkpoints")));
        FlowSqlJob.configure(onCluster, JobConfig.of(Map.of(JobOptions.STATE_CHANGELOG.key(), "true")));
        assertThat(onCluster.getConfiguration().get(FsStateChangelogOptions.BASE_PATH)).as("beside the cluster's checkpoints")
                .isEqualTo("s3://bucket/checkpoints/changelog");

        assertThatThrownBy(() -> configured(JobConfig.of(Map.of(JobOptions.STATE_CHANGELOG.key(), "true"))))
                .as("a changelog with no folder every TaskManager could read is refused")
                .hasMessageContaining("job.state-changelog=true needs job.checkpoint-dir");
    }

    /**
     * auto, the default: on for an in-process job with heap state and a checkpoint folder (its configuration is its
     * TaskManager's, so the log goes where the job says); off with RocksDB, without job.checkpoint-dir, on a cluster
     * (the log's folder is the TaskManagers' setting there) and when turned off.
     */
    @Test
    void theChangelogIsOnByDefaultOnlyInProcessWithHeapStateAndACheckpointFolder() {
        String dir = "file:///var/flowsql/checkpoints";
        StreamExecutionEnvironment inProcess = configured(JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), dir)));
        assertThat(inProcess.getConfiguration().get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isTrue();
        assertThat(inProcess.getConfiguration().get(FsStateChangelogOptions.BASE_PATH)).isEqualTo(dir + "/changelog");

        assertThat(configured(JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), dir, JobOptions.STATE_CHANGELOG.key(), "false")))
                .getConfiguration().getOptional(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).as("turned off").isEmpty();
        assertThat(configured(JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), dir, JobOptions.STATE_BACKEND.key(), "rocksdb")))
                .getConfiguration().getOptional(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).as("RocksDB: incremental already").isEmpty();
        StreamExecutionEnvironment rocksDbCluster = StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of(StateBackendOptions.STATE_BACKEND.key(), "rocksdb")));
        FlowSqlJob.configure(rocksDbCluster, JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), dir)));
        assertThat(rocksDbCluster.getConfiguration().getOptional(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG))
                .as("the environment's RocksDB").isEmpty();

        StreamExecutionEnvironment remote = StreamExecutionEnvironment.createRemoteEnvironment("127.0.0.1", 1);
        FlowSqlJob.configure(remote, JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), dir)));
        assertThat(remote.getConfiguration().getOptional(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG))
                .as("submitted to a cluster: the TaskManagers' settings decide where a log would go").isEmpty();
        FlowSqlJob.configure(remote, JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), dir, JobOptions.STATE_CHANGELOG.key(), "TRUE")));
        assertThat(remote.getConfiguration().get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).as("asked for").isTrue();
    }

    /**
     * A pause after each checkpoint: without it Flink queues a periodic request for every interval a slow checkpoint
     * overran and runs them back to back afterwards, which kept an idle job on a loaded cluster checkpointing every
     * 3 s after it had switched to the idle interval.
     */
    @Test
    void checkpointsSlowerThanTheIntervalDoNotQueueUp() {
        assertThat(configured(JobConfig.defaults()).getCheckpointConfig().getMinPauseBetweenCheckpoints()).isEqualTo(100);
        assertThatThrownBy(() -> configured(JobConfig.of(Map.of(JobOptions.CHECKPOINT_MIN_PAUSE.key(), "2s"))))
                .hasMessageContaining("job.checkpoint-min-pause");
    }

    /** The job uses no event time, so no source subtask wakes every 200 ms (Flink's default) to emit a watermark. */
    @Test
    void sourcesEmitNoPeriodicWatermarks() {
        assertThat(configured(JobConfig.defaults()).getConfig().getAutoWatermarkInterval()).isZero();
    }

    @Test
    void everyRecordIsSentAsItIsWrittenUnlessABufferTimeoutIsGiven() {
        assertThat(configured(JobConfig.defaults()).getBufferTimeout()).as("flush after every record: no flusher thread")
                .isZero();
        assertThat(configured(JobConfig.of(Map.of(JobOptions.BUFFER_TIMEOUT.key(), "10ms"))).getBufferTimeout())
                .isEqualTo(10);
    }
}

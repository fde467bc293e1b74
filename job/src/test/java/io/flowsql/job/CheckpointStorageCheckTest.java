package io.flowsql.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CheckpointStorageCheckTest {

    @Test
    void checkpointsInTheJobManagersMemoryAreWarnedAbout() {
        assertThat(CheckpointStorageCheck.warning(new Configuration())).hasValueSatisfying(w ->
                assertThat(w).contains("without durable checkpoint storage").contains("job.checkpoint-dir"));
        Configuration forced = Configuration.fromMap(Map.of(
                "execution.checkpointing.dir", "s3://bucket/flowsql", "execution.checkpointing.storage", "jobmanager"));
        assertThat(CheckpointStorageCheck.warning(forced)).hasValueSatisfying(w -> assertThat(w).contains("'jobmanager'"));
    }

    @Test
    void aCheckpointFolderFromTheJobOrTheClusterIsDurable() {
        assertThat(CheckpointStorageCheck.warning(Configuration.fromMap(Map.of("execution.checkpointing.dir", "s3://bucket/cp"))))
                .isEmpty();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        FlowSqlJob.configure(env, JobConfig.of(Map.of(JobOptions.CHECKPOINT_DIR.key(), "file:///var/flowsql/checkpoints")));
        assertThat(CheckpointStorageCheck.warning(env.getConfiguration())).as("job.checkpoint-dir reaches Flink").isEmpty();
    }

    @Test
    void keyedStateOnTheHeapIsWarnedAboutUnlessRocksDbOrTheChangelogIsChosen() {
        assertThat(CheckpointStorageCheck.heapStateWarning(new Configuration())).as("Flink's default, the heap")
                .hasValueSatisfying(w -> assertThat(w).contains("hashmap").contains("job.state-backend=rocksdb").contains("job.state-changelog=true"));
        assertThat(CheckpointStorageCheck.heapStateWarning(Configuration.fromMap(Map.of("state.backend.type", "rocksdb"))))
                .as("the cluster's choice").isEmpty();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        FlowSqlJob.configure(env, JobConfig.of(Map.of(JobOptions.STATE_BACKEND.key(), "rocksdb")));
        assertThat(CheckpointStorageCheck.heapStateWarning(env.getConfiguration())).as("the job's choice").isEmpty();
        StreamExecutionEnvironment changelog = StreamExecutionEnvironment.getExecutionEnvironment();
        FlowSqlJob.configure(changelog, JobConfig.of(Map.of(JobOptions.STATE_CHANGELOG.key(), "true",
                JobOptions.CHECKPOINT_DIR.key(), "file:///tmp/flowsql-checkpoints")));
        assertThat(CheckpointStorageCheck.heapStateWarning(changelog.getConfiguration()))
                .as("the heap with the changelog: a checkpoint writes what changed").isEmpty();
    }
}

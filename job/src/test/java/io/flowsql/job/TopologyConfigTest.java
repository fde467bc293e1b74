package io.flowsql.job;

import io.flowsql.job.topology.TopologyConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every topology knob set in the job options reaches the topology's configuration. */
class TopologyConfigTest {

    @Test
    void jobOptionsReachTheTopologyConfig() {
        JobConfig config = JobConfig.of(Map.ofEntries(
                Map.entry(JobOptions.PARALLELISM.key(), "3"),
                Map.entry(JobOptions.STAGE_CAPACITY.key(), "7"),
                Map.entry("stage.capacity.opensearch.generate", "9"),
                Map.entry(JobOptions.STAGE_TIMEOUT.key(), "45s"),
                Map.entry(JobOptions.LLM_TIMEOUT.key(), "20s"),
                Map.entry(JobOptions.LLM_TOTAL_BUDGET.key(), "40s"),
                Map.entry("stage.timeout.sqlfix.refine", "2min"),
                Map.entry(JobOptions.EXECUTION_POOL_SIZE.key(), "5"),
                Map.entry(JobOptions.EXECUTION_CAPACITY.key(), "11"),
                Map.entry(JobOptions.EXECUTION_TIMEOUT.key(), "12s"),
                Map.entry(JobOptions.GATHER_TIMEOUT.key(), "13s"),
                Map.entry(JobOptions.HISTORY_TTL.key(), "2h"),
                Map.entry(JobOptions.HISTORY_MAX_TURNS.key(), "4"),
                Map.entry(JobOptions.HISTORY_MAX_BYTES.key(), "2000"),
                Map.entry(JobOptions.FEEDBACK_WAIT.key(), "40s"),
                Map.entry(JobOptions.PRESETS.key(), "opensearch;mag-sql"),
                Map.entry(JobOptions.STRATEGY.key(), "opensearch")));

        TopologyConfig t = EngineWiring.topologyConfig(config);

        assertThat(t.parallelism).isEqualTo(3);
        assertThat(t.capacityOf("mmsql.detect")).isEqualTo(7);
        assertThat(t.capacityOf("opensearch.generate")).isEqualTo(9);
        assertThat(t.timeoutOf("mmsql.detect")).isEqualTo(Duration.ofSeconds(45));
        assertThat(t.timeoutOf("sqlfix.refine")).isEqualTo(Duration.ofMinutes(2));
        assertThat(t.executionPoolSize).isEqualTo(5);
        assertThat(t.executionCapacity).isEqualTo(11);
        assertThat(t.executionTimeout).isEqualTo(Duration.ofSeconds(12));
        assertThat(t.gatherTimeout).isEqualTo(Duration.ofSeconds(13));
        assertThat(t.historyTtl).isEqualTo(Duration.ofHours(2));
        assertThat(t.feedbackWait).isEqualTo(Duration.ofSeconds(40));
        assertThat(t.presets).containsExactly("opensearch", "mag-sql");
        assertThat(EngineWiring.topologyConfig(JobConfig.of(Map.of())).presets)
                .containsExactly("mag-sql", "sqlfix", "opensearch", "mmsql", "full");
        assertThat(t.engine.defaultStrategy()).isEqualTo(config.get(JobOptions.STRATEGY));
        assertThat(t.historyLimits).isEqualTo(new io.flowsql.flink.HistoryLimits(4, 2000));
    }
}

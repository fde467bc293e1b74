package io.flowsql.job;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.EngineConfig;
import io.flowsql.job.journal.KafkaJournalSource;
import io.flowsql.journal.StageJournalSource;
import io.flowsql.config.llm.CacheMode;
import io.flowsql.llm.LlmClientConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineWiringTest {

    private static JobConfig config(Map<String, String> overrides) {
        Map<String, String> all = new HashMap<>(overrides);
        all.put(JobOptions.SHARED_DATA.key(), System.getProperty("flowsql.shared.data"));
        return JobConfig.of(all);
    }

    @Test
    void rateLimitsBudgetAndCacheReachTheEngineConfig() {
        EngineConfig engine = EngineWiring.engineConfig(config(Map.of(
                "llm.requests-per-minute", "120",
                "llm.tokens-per-minute", "90000",
                "llm.total-budget", "7min",
                "stage.timeout", "8min",
                "llm.cache-dir", "work/llm-cache",
                "llm.cache-mode", "read-only")));
        LlmClientConfig llm = engine.llm();
        assertThat(llm.requestsPerMinute()).isEqualTo(120);
        assertThat(llm.tokensPerMinute()).isEqualTo(90000);
        assertThat(llm.totalBudget()).isEqualTo(Duration.ofMinutes(7));
        assertThat(engine.llmCache().dir()).isEqualTo("work/llm-cache");
        assertThat(engine.llmCache().cacheMode()).isEqualTo(CacheMode.READ_ONLY);
        assertThat(engine.llmCache().enabled()).isTrue();
    }

    @Test
    void theJournalTopicTurnsTheKafkaStageJournalOnAndTheReleaseOptionDecidesRetention() {
        JobConfig on = config(Map.of("kafka.bootstrap-servers", "broker:9092", "journal.topic", "stage-journal",
                "journal.retention", "3d"));
        assertThat(EngineWiring.engineConfig(on).journal())
                .isEqualTo(new KafkaJournalSource("broker:9092", "stage-journal", Duration.ofDays(3)));
        assertThat(EngineWiring.releasesJournalOnCommit(on)).isTrue();
        assertThat(EngineWiring.releasesJournalOnCommit(config(Map.of("journal.topic", "j", "journal.release", "retain"))))
                .isFalse();
        JobConfig off = config(Map.of());
        assertThat(EngineWiring.engineConfig(off).journal()).isSameAs(StageJournalSource.NONE);
        assertThat(EngineWiring.releasesJournalOnCommit(off)).isFalse();
        assertThatThrownBy(() -> config(Map.of("journal.release", "never"))).hasMessageContaining("journal.release");
        assertThatThrownBy(() -> config(Map.of("journal.retention", "0s"))).hasMessageContaining("journal.retention");
    }

    @Test
    void concurrencyFollowsTheDeclaredServerSlotsUnlessSetExplicitly() {
        assertThat(EngineWiring.engineConfig(config(Map.of())).llm().maxConcurrency())
                .isEqualTo(2 * LlmClientConfig.DEFAULT_SERVER_SLOTS)
                .isEqualTo(LlmClientConfig.builder("http://x/v1").build().maxConcurrency());
        assertThat(EngineWiring.engineConfig(config(Map.of("llm.server-slots", "64"))).llm().maxConcurrency())
                .isEqualTo(128);
        assertThat(EngineWiring.engineConfig(config(Map.of("llm.server-slots", "64", "llm.max-concurrency", "10")))
                .llm().maxConcurrency()).isEqualTo(10);
        assertThat(LlmClientConfig.fromEnvironment(Map.of("LLM_SERVER_SLOTS", "4")).maxConcurrency()).isEqualTo(8);
        assertThatThrownBy(() -> EngineWiring.engineConfig(config(Map.of("llm.server-slots", "0"))))
                .hasMessageContaining("llm.server-slots");
    }

    @Test
    void defaultsLeaveTheLlmUnlimitedUncachedAndTheAgentsAsTheyWere() {
        EngineConfig engine = EngineWiring.engineConfig(config(Map.of()));
        assertThat(engine.llm().requestsPerMinute()).isZero();
        assertThat(engine.llm().tokensPerMinute()).isZero();
        assertThat(engine.llmCache().enabled()).isFalse();
        AgentSettings defaults = AgentSettings.defaults();
        AgentSettings agents = engine.agents();
        assertThat(agents.candidates).isEqualTo(defaults.candidates);
        assertThat(agents.temperature).isEqualTo(defaults.temperature);
        assertThat(agents.sqlfixCrafterK).isEqualTo(defaults.sqlfixCrafterK);
        assertThat(agents.alignValues).isEqualTo(defaults.alignValues);
        assertThat(agents.repairMemoryPath).isNull();
    }

    @Test
    void agentKnobsReachTheAgentSettings() {
        AgentSettings agents = EngineWiring.engineConfig(config(Map.ofEntries(
                Map.entry("agents.candidates", "8"),
                Map.entry("agents.temperature", "0.2"),
                Map.entry("agents.link-skip-columns", "12"),
                Map.entry("agents.mag-refine-rounds", "1"),
                Map.entry("agents.sqlfix-crafter-k", "4"),
                Map.entry("agents.sqlfix-refine-attempts", "5"),
                Map.entry("agents.repair-memory", "work/repairs.jsonl"),
                Map.entry("agents.align.values", "false"),
                Map.entry("agents.align.max-subquery", "false"),
                Map.entry("agents.align.not-null", "false"),
                Map.entry("agents.align.null-comparison", "false")))).agents();
        assertThat(agents.candidates).isEqualTo(8);
        assertThat(agents.temperature).isEqualTo(0.2);
        assertThat(agents.linkSkipColumnThreshold).isEqualTo(12);
        assertThat(agents.magRefineRounds).isEqualTo(1);
        assertThat(agents.sqlfixCrafterK).isEqualTo(4);
        assertThat(agents.sqlfixRefineAttempts).isEqualTo(5);
        assertThat(agents.repairMemoryPath).isEqualTo("work/repairs.jsonl");
        assertThat(agents.alignValues).isFalse();
        assertThat(agents.alignMaxSubqueryToOrderBy).isFalse();
        assertThat(agents.alignNotNullOnOrderBy).isFalse();
        assertThat(agents.alignNullComparison).isFalse();
    }

    @Test
    void badValuesFailAtStartNamingTheKey() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.requests-per-minute", "-1")))
                .hasMessageContaining("llm.requests-per-minute");
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.tokens-per-minute", "lots")))
                .hasMessageContaining("llm.tokens-per-minute");
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.total-budget", "10s")))
                .hasMessageContaining("llm.total-budget").hasMessageContaining("llm.request-timeout");
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.cache-mode", "sometimes")))
                .hasMessageContaining("llm.cache-mode");
        assertThatThrownBy(() -> JobConfig.of(Map.of("agents.candidates", "0")))
                .hasMessageContaining("agents.candidates");
        assertThatThrownBy(() -> JobConfig.of(Map.of("agents.temperature", "3.5")))
                .hasMessageContaining("agents.temperature");
        assertThatThrownBy(() -> JobConfig.of(Map.of("agents.sqlfix-refine-attempts", "0")))
                .hasMessageContaining("agents.sqlfix-refine-attempts");
        assertThatThrownBy(() -> JobConfig.of(Map.of("agents.align.values", "maybe")))
                .hasMessageContaining("agents.align.values");
    }
}

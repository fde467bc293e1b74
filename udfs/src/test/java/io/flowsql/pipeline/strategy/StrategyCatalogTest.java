package io.flowsql.pipeline.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.Engine;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.Strategy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every preset is a subsequence of the canonical order and builds from an engine, and a bad name lists the valid ones. */
class StrategyCatalogTest {

    @Test
    void everyPresetFollowsTheCanonicalOrder() {
        List<String> canonical = StrategyCatalog.canonicalOrder();
        assertThat(StrategyCatalog.presetNames()).containsExactly("mag-sql", "sqlfix", "opensearch", "mmsql", "full");
        for (String preset : StrategyCatalog.presetNames()) {
            List<String> stages = new ArrayList<>(StrategyCatalog.stagesOf(preset));
            List<Integer> positions = stages.stream().map(canonical::indexOf).toList();
            assertThat(positions).as(preset).doesNotContain(-1).isSorted();
            assertThat(stages).as(preset).endsWith("answer.finalize");
        }
        assertThat(StrategyCatalog.stagesOf("full")).containsExactlyElementsOf(canonical);
        assertThat(StrategyCatalog.stagesOf("sqlfix")).containsExactly("opensearch.generate", "candidates.execute",
                "sqlfix.review", "sqlfix.craft", "sqlfix.execute", "sqlfix.refine", "answer.finalize");
        assertThat(StrategyCatalog.stagesOf("mmsql")).containsExactly("mmsql.rewrite", "mmsql.select", "mmsql.detect",
                "mmsql.decompose", "candidates.execute", "mmsql.refine", "mmsql.readings", "answer.finalize");
    }

    @Test
    void everyPresetBuildsFromAnEngineWithItsStagesInCanonicalOrder() {
        Engine engine = new Engine(ScriptedLlmClient.alwaysResponds("unused"), SpiderAgentParts.EXECUTOR,
                SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES);
        for (String preset : StrategyCatalog.presetNames()) {
            Strategy strategy = StrategyCatalog.build(preset, engine, AgentSettings.defaults());
            assertThat(strategy.name()).isEqualTo(preset);
            assertThat(strategy.stages().stream().map(Stage::name).toList()).as(preset)
                    .containsExactlyElementsOf(StrategyCatalog.stagesOf(preset));
        }
        assertThatThrownBy(() -> StrategyCatalog.build("nope", engine, AgentSettings.defaults()))
                .hasMessageContaining("valid strategies: mag-sql");
    }

    @Test
    void unknownPresetNamesTheValidOnes() {
        assertThatThrownBy(() -> StrategyCatalog.stagesOf("magsql"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("magsql").hasMessageContaining("mag-sql, sqlfix, opensearch, mmsql, full");
    }
}

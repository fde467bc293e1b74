package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.llm.RequestParameters;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** llm.stage.<stage>.temperature and .top-p reach the agents' settings, and wrong keys or values are refused. */
class StageSamplingOptionsTest {

    @Test
    void temperatureAndTopPPerStageBecomeTheStagesSampling() {
        AgentSettings agents = EngineWiring.agents(JobConfig.of(Map.of(
                "llm.stage.opensearch.generate.temperature", "0.4",
                "llm.stage.opensearch.correct.top-p", "0.5",
                "llm.stage.opensearch.correct.temperature", "0.1")));
        assertThat(agents.stageSampling).containsEntry("opensearch.generate", new RequestParameters(0.4, null))
                .containsEntry("opensearch.correct", new RequestParameters(0.1, 0.5)).hasSize(2);
        assertThat(EngineWiring.agents(JobConfig.of(Map.of())).stageSampling).isEmpty();
        assertThat(AgentSettings.defaults().candidates).as("OpenSearch-SQL's n").isEqualTo(21);
    }

    @Test
    void aKeyWithoutTemperatureOrTopPOrAValueOutOfRangeIsRefused() {
        assertThatThrownBy(() -> EngineWiring.agents(JobConfig.of(Map.of("llm.stage.opensearch.generate.seed", "1"))))
                .hasMessageContaining("llm.stage.opensearch.generate.seed");
        assertThatThrownBy(() -> EngineWiring.agents(JobConfig.of(Map.of("llm.stage.mmsql.temperature", "3"))))
                .hasMessageContaining("llm.stage.mmsql.temperature").hasMessageContaining("between 0 and 2");
        assertThatThrownBy(() -> EngineWiring.agents(JobConfig.of(Map.of("llm.stage.mmsql.top-p", "x"))))
                .hasMessageContaining("cannot read 'x'");
    }
}

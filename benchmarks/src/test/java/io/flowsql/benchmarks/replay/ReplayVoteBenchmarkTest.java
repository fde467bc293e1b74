package io.flowsql.benchmarks.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.Engine;
import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageParts;
import io.flowsql.llm.LlmException;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay's stages come from the registry's opensearch preset: the generation, the alignment (whose model steps the
 * simulator answers) and the stages after it that ask no model.
 */
class ReplayVoteBenchmarkTest {

    @Test
    void theReplayRunsTheGenerationAndTheLaterStagesThatAskNoModel(@TempDir Path databases) {
        assertThat(ReplayVoteBenchmark.replayStages().stream().map(StageDeclaration::name).toList()).containsExactly(
                "opensearch.generate", "opensearch.align", "candidates.execute", "opensearch.vote", "answer.finalize");

        DatabaseLocator locator = new DatabaseLocator(List.of(databases), List.of());
        try (Engine engine = new Engine(request -> CompletableFuture.failedFuture(
                        new LlmException(LlmErrorKind.SERVER_ERROR, "no model in this test")),
                new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults()), new SqliteSchemaCatalog(locator),
                CachingValueIndexProvider.ngram(locator, LcsValueScorer.defaults(), 1))) {
            StageParts parts = StageParts.standard(engine, AgentSettings.defaults());
            assertThat(names(ReplayVoteBenchmark.replayStages(parts, true))).containsExactly(
                    "opensearch.generate", "opensearch.align", "candidates.execute", "opensearch.vote", "answer.finalize");
            assertThat(names(ReplayVoteBenchmark.replayStages(parts, false))).containsExactly(
                    "opensearch.generate", "candidates.execute", "opensearch.vote", "answer.finalize");
        }
    }

    private static List<String> names(List<NamedStage> stages) {
        return stages.stream().map(NamedStage::name).toList();
    }
}

package io.flowsql.job;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineStageBinding;
import io.flowsql.flink.StageBinding;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.exec.SqlExecutorConfig;

/** Builds the engine configuration (LLM client, SQL executor, databases, strategy) and its stage binding from the job options. */
public final class EngineWiring {
    private EngineWiring() {}

    public static StageBinding binding(JobConfig config) {
        return new EngineStageBinding(engineConfig(config));
    }

    public static EngineConfig engineConfig(JobConfig config) {
        DatabaseLocator databases = JobDatabases.locator(config);
        SqlExecutorConfig sql = SqlExecutorConfig.defaults()
                .withTimeoutMillis(config.get(JobOptions.QUERY_TIMEOUT).toMillis())
                .withMaxRows(config.get(JobOptions.MAX_ROWS));
        return new EngineConfig(llm(config), sql, databases, AgentSettings.defaults(), config.get(JobOptions.STRATEGY),
                ComparisonMode.SPIDER_TEST_SUITE, 64, new RendererSchemaViewsSource(databases, sql));
    }

    static LlmClientConfig llm(JobConfig config) {
        LlmClientConfig.Builder b = LlmClientConfig.builder(config.get(JobOptions.LLM_BASE_URL))
                .apiKey(config.get(JobOptions.LLM_API_KEY))
                .defaultModel(config.get(JobOptions.LLM_MODEL))
                .callTimeout(config.get(JobOptions.LLM_TIMEOUT))
                .maxConcurrency(config.get(JobOptions.LLM_MAX_CONCURRENCY))
                .maxAttempts(config.get(JobOptions.LLM_MAX_RETRIES) + 1);
        config.family("llm.model.").forEach(b::stageModel);
        return b.build();
    }
}

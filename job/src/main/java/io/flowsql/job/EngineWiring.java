package io.flowsql.job;

import io.flowsql.access.AccessPolicies;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.LlmCacheSettings;
import io.flowsql.flink.HistoryLimits;
import io.flowsql.config.journal.JournalRelease;
import io.flowsql.job.journal.KafkaJournalSource;
import io.flowsql.job.topology.TopologyConfig;
import io.flowsql.journal.StageJournalSource;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.rooms.SqlRooms;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.exec.SqlExecutorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;

/**
 * Builds what the operators run with from the job options: the engine configuration (LLM client and cache, SQL
 * executor, databases, agents, strategy) and the topology's configuration around it.
 */
public final class EngineWiring {
    private EngineWiring() {}

    public static EngineConfig engineConfig(JobConfig config) {
        DatabaseLocator databases = JobDatabases.locator(config);
        return new EngineConfig(llm(config), sqlExecutorConfig(config), databases, agents(config), config.get(JobOptions.STRATEGY),
                ComparisonMode.SPIDER_TEST_SUITE, 64, llmCache(config),
                journal(config)).withDeclaredDatabases(JobDatabases.registry(config).declared());
    }

    /** The safe executor's budgets (sql.query-timeout, sql.max-rows): the SQL room's ({@link SqlRooms#executor}). */
    public static SqlExecutorConfig sqlExecutorConfig(JobConfig config) {
        return SqlRooms.executor(config.settings());
    }

    /** The topology as the job options configure it. */
    public static TopologyConfig topologyConfig(JobConfig config) {
        TopologyConfig t = new TopologyConfig(engineConfig(config));
        t.presets = new ArrayList<>(config.get(JobOptions.PRESETS));
        t.parallelism = config.get(JobOptions.PARALLELISM);
        t.stageCapacity = config.get(JobOptions.STAGE_CAPACITY);
        t.capacityByStage.putAll(config.intFamily(JobOptions.CAPACITY_BY_STAGE.prefix()));
        t.stageTimeout = config.get(JobOptions.STAGE_TIMEOUT);
        t.timeoutByStage.putAll(config.durationFamily(JobOptions.TIMEOUT_BY_STAGE.prefix()));
        t.executionPoolSize = config.get(JobOptions.EXECUTION_POOL_SIZE);
        t.executionCapacity = config.get(JobOptions.EXECUTION_CAPACITY);
        t.executionTimeout = config.get(JobOptions.EXECUTION_TIMEOUT);
        t.gatherTimeout = config.get(JobOptions.GATHER_TIMEOUT);
        t.historyTtl = config.get(JobOptions.HISTORY_TTL);
        t.feedbackWait = config.get(JobOptions.FEEDBACK_WAIT);
        t.maxWaitingTurns = config.get(JobOptions.DIALOGUE_MAX_WAITING);
        t.historyLimits = new HistoryLimits(config.get(JobOptions.HISTORY_MAX_TURNS), config.get(JobOptions.HISTORY_MAX_BYTES));
        return t;
    }

    /**
     * How long a feedback SQL check may take: feedback.check-timeout when set, else its default or sql.query-timeout plus
     * 5 s, whichever is longer (the check must end by the executor's own limit first).
     */
    public static java.time.Duration feedbackCheckTimeout(JobConfig config) {
        java.time.Duration configured = config.get(JobOptions.FEEDBACK_CHECK_TIMEOUT);
        if (config.explicitValues().containsKey(JobOptions.FEEDBACK_CHECK_TIMEOUT.key())) {
            return configured;
        }
        java.time.Duration following = config.get(JobOptions.QUERY_TIMEOUT).plusSeconds(5);
        return following.compareTo(configured) > 0 ? following : configured;
    }

    /** The Kafka stage journal when journal.topic is set, else none. */
    static StageJournalSource journal(JobConfig config) {
        String topic = config.get(JobOptions.JOURNAL_TOPIC).trim();
        return topic.isEmpty() ? StageJournalSource.NONE
                : new KafkaJournalSource(config.kafkaClients(), topic, config.get(JobOptions.JOURNAL_RETENTION),
                        config.get(JobOptions.JOURNAL_CACHE_MAX_ENTRIES), config.get(JobOptions.JOURNAL_CACHE_MAX_BYTES).getBytes());
    }

    /** Whether committed answers release their requests' journal entries (a journal is on and journal.release=on-commit). */
    public static boolean releasesJournalOnCommit(JobConfig config) {
        return !config.get(JobOptions.JOURNAL_TOPIC).isBlank() && config.get(JobOptions.JOURNAL_RELEASE) == JournalRelease.ON_COMMIT;
    }

    static LlmCacheSettings llmCache(JobConfig config) {
        return new LlmCacheSettings(config.get(JobOptions.LLM_CACHE_DIR).trim(), config.get(JobOptions.LLM_CACHE_MODE).name());
    }

    static AgentSettings agents(JobConfig config) {
        AgentSettings agents = AgentSettings.defaults();
        agents.candidates = config.get(JobOptions.AGENT_CANDIDATES);
        agents.temperature = config.get(JobOptions.AGENT_TEMPERATURE);
        agents.linkSkipColumnThreshold = config.get(JobOptions.AGENT_LINK_SKIP_COLUMNS);
        agents.magRefineRounds = config.get(JobOptions.AGENT_MAG_REFINE_ROUNDS);
        agents.linkSkipAvgColumns = config.get(JobOptions.AGENT_LINK_SKIP_AVG_COLUMNS);
        agents.magRefineOnAnyNull = config.get(JobOptions.AGENT_MAG_REFINE_ON_ANY_NULL);
        agents.magSchemaFallback = config.get(JobOptions.AGENT_MAG_SCHEMA_FALLBACK);
        agents.magNestedHint = config.get(JobOptions.AGENT_MAG_NESTED_HINT);
        agents.magPostprocess = config.get(JobOptions.AGENT_MAG_POSTPROCESS);
        agents.mmsqlSelectByModel = config.get(JobOptions.AGENT_MMSQL_SELECT_BY_MODEL);
        agents.mmsqlRewriteByModel = config.get(JobOptions.AGENT_MMSQL_REWRITE_BY_MODEL);
        agents.mmsqlReadingsDecomposeRefine = config.get(JobOptions.AGENT_MMSQL_READINGS_DECOMPOSE_REFINE);
        agents.mmsqlReadingsOriginalQuestion = config.get(JobOptions.AGENT_MMSQL_READINGS_ORIGINAL_QUESTION);
        agents.opensearchCorrectRounds = config.get(JobOptions.AGENT_OPENSEARCH_CORRECT_ROUNDS);
        agents.opensearchCorrectMode = config.get(JobOptions.AGENT_OPENSEARCH_CORRECT_MODE);
        agents.opensearchAlignMode = config.get(JobOptions.AGENT_OPENSEARCH_ALIGN_MODE);
        agents.summarizePresets = config.get(JobOptions.AGENT_SUMMARIZE_PRESETS);
        agents.knowledgeSimilarity = config.get(JobOptions.KNOWLEDGE_SIMILARITY);
        agents.knowledgePerQuestion = config.get(JobOptions.KNOWLEDGE_PER_QUESTION);
        agents.opensearchCorrectOnResult = config.get(JobOptions.AGENT_OPENSEARCH_CORRECT_ON_RESULT);
        agents.opensearchAdherence = config.get(JobOptions.AGENT_OPENSEARCH_ADHERENCE);
        agents.mmsqlSelectAboveColumns = config.get(JobOptions.AGENT_MMSQL_SELECT_ABOVE_COLUMNS);
        agents.sqlfixCrafterK = config.get(JobOptions.AGENT_SQLFIX_CRAFTER_K);
        agents.sqlfixRefineAttempts = config.get(JobOptions.AGENT_SQLFIX_REFINE_ATTEMPTS);
        agents.sqlfixCraftPerAttempt = config.get(JobOptions.AGENT_SQLFIX_CRAFT_PER_ATTEMPT);
        String fewShot = config.get(JobOptions.AGENT_FEWSHOT_LIBRARY).trim();
        agents.fewShotLibraryPath = fewShot.isEmpty() ? null : fewShot;
        agents.fewShotExamples = config.get(JobOptions.AGENT_FEWSHOT_EXAMPLES);
        agents.fewShotSources = config.get(JobOptions.AGENT_FEWSHOT_SOURCES).trim();
        agents.fewShotOtherDatabasesOnly = config.get(JobOptions.AGENT_FEWSHOT_OTHER_DATABASES_ONLY);
        String repairMemory = config.get(JobOptions.AGENT_REPAIR_MEMORY).trim();
        agents.repairMemoryPath = repairMemory.isEmpty() ? null : repairMemory;
        agents.repairMemoryLearns = config.get(JobOptions.AGENT_REPAIR_MEMORY_LEARN);
        String seed = config.get(JobOptions.AGENT_REPAIR_MEMORY_SEED).trim();
        agents.repairMemorySeed = seed.isEmpty() ? null : seed;
        agents.repairSeedOtherDatabasesOnly = config.get(JobOptions.AGENT_REPAIR_SEED_OTHER_DATABASES_ONLY);
        agents.alignValues = config.get(JobOptions.AGENT_ALIGN_VALUES);
        agents.alignMaxSubqueryToOrderBy = config.get(JobOptions.AGENT_ALIGN_MAX_SUBQUERY);
        agents.alignNotNullOnOrderBy = config.get(JobOptions.AGENT_ALIGN_NOT_NULL);
        agents.alignNullComparison = config.get(JobOptions.AGENT_ALIGN_NULL_COMPARISON);
        agents.schemaTokenBudget = config.get(JobOptions.SCHEMA_TOKEN_BUDGET);
        agents.schemaRefreshMillis = config.get(JobOptions.SCHEMA_REFRESH_INTERVAL).toMillis();
        agents.access = access(config);
        agents.stageSampling = stageSampling(config.get(JobOptions.LLM_SAMPLING_BY_STAGE));
        return agents;
    }

    /** llm.stage.<stage>.temperature and .top-p as parameters per stage (a key with another ending is refused). */
    static java.util.LinkedHashMap<String, io.flowsql.llm.RequestParameters> stageSampling(Map<String, String> keys) {
        java.util.LinkedHashMap<String, io.flowsql.llm.RequestParameters> byStage = new java.util.LinkedHashMap<>();
        new java.util.TreeMap<>(keys).forEach((key, value) -> {
            String option = JobOptions.LLM_SAMPLING_BY_STAGE.prefix() + key;
            double number;
            try {
                number = Double.parseDouble(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": cannot read '" + value + "' as a number");
            }
            boolean temperature = key.endsWith(".temperature");
            if (!temperature && !key.endsWith(".top-p")) {
                throw new IllegalArgumentException(option + ": llm.stage.<stage> takes .temperature or .top-p");
            }
            String stage = key.substring(0, key.lastIndexOf('.'));
            io.flowsql.llm.RequestParameters one;
            try {
                one = temperature ? new io.flowsql.llm.RequestParameters(number, null)
                        : new io.flowsql.llm.RequestParameters(null, number);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage());
            }
            byStage.merge(stage, one, io.flowsql.llm.RequestParameters::over);
        });
        return byStage;
    }

    /** The tenants' access policies: the access room's ({@link SqlRooms#access}). */
    public static AccessPolicies access(JobConfig config) {
        return SqlRooms.access(config.settings());
    }

    /** llm.max-concurrency when set, else derived from llm.server-slots (docs/LLM.md#concurrency). */
    public static int maxConcurrency(JobConfig config) {
        int explicit = config.get(JobOptions.LLM_MAX_CONCURRENCY);
        return explicit > 0 ? explicit : LlmClientConfig.concurrencyFor(config.get(JobOptions.LLM_SERVER_SLOTS));
    }

    static LlmClientConfig llm(JobConfig config) {
        LlmClientConfig.Builder b = LlmClientConfig.builder(config.get(JobOptions.LLM_BASE_URL))
                .apiKey(EndpointKey.resolve(config))
                .defaultModel(config.get(JobOptions.LLM_MODEL))
                .embeddingModel(config.get(JobOptions.LLM_EMBEDDING_MODEL))
                .embeddingEncoding(config.get(JobOptions.LLM_EMBEDDING_ENCODING))
                .callTimeout(config.get(JobOptions.LLM_TIMEOUT))
                .maxConcurrency(maxConcurrency(config))
                .maxAttempts(config.get(JobOptions.LLM_MAX_RETRIES) + 1)
                .requestsPerMinute(config.get(JobOptions.LLM_REQUESTS_PER_MINUTE))
                .tokensPerMinute(config.get(JobOptions.LLM_TOKENS_PER_MINUTE))
                .totalBudget(config.get(JobOptions.LLM_TOTAL_BUDGET))
                .retryWindow(config.get(JobOptions.LLM_RETRY_WINDOW))
                .structuredOutput(config.get(JobOptions.LLM_STRUCTURED_OUTPUT))
                .defaultMaxTokens(config.get(JobOptions.LLM_MAX_TOKENS))
                .contextTokens(config.get(JobOptions.LLM_CONTEXT_TOKENS))
                .replyOverlay(config.get(JobOptions.LLM_REPLY_OVERLAY));
        Duration queue = config.get(JobOptions.LLM_QUEUE_BUDGET);
        Duration budget = config.get(JobOptions.LLM_TOTAL_BUDGET);
        b.queueBudget(queue.compareTo(budget) > 0 ? budget : queue);  // a default above a lowered total budget follows it
        config.get(JobOptions.LLM_MODEL_BY_STAGE).forEach(b::stageModel);
        config.get(JobOptions.LLM_EMBEDDING_MODEL_BY_USE).forEach(b::embeddingModel);
        config.get(JobOptions.MAX_TOKENS_BY_STAGE).forEach(b::stageMaxTokens);
        return b.build();
    }
}

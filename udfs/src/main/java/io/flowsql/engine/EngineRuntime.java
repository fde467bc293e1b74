package io.flowsql.engine;

import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.journal.StageJournal;
import io.flowsql.knowledge.KnowledgeFirst;
import io.flowsql.knowledge.SimilarKnowledge;
import io.flowsql.config.llm.CacheMode;
import io.flowsql.llm.CachingLlmClient;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.llm.ResponseCache;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.Strategy;
import io.flowsql.sql.server.DatabaseParts;
import io.flowsql.sql.catalog.SchemaCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * A built engine and what is made from it once per JVM: the candidate runner and one instance of each
 * stage (stages are stateless per request, so every preset and operator uses the same instance).
 */
public final class EngineRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineRuntime.class);

    private final Engine engine;
    private final StageJournal journal;
    private final EnginePools pools;
    private final CandidateRunner runner;
    private final StageParts parts;
    /** Knowledge matched by embedding before a request's first stage; null when off ({@code knowledge.similarity}). */
    private final SimilarKnowledge similarKnowledge;
    private final Map<String, Optional<NamedStage>> stageByName = new ConcurrentHashMap<>();

    EngineRuntime(EngineConfig config, Engine engine, SchemaContext schema, EnginePools pools, StageJournal journal) {
        this.engine = engine;
        this.pools = pools;
        this.journal = journal;
        this.runner = new CandidateRunner(engine.room(config.agents().access), config.voteComparison(),
                config.agents().previewRows);
        this.parts = new StageParts(engine, config.agents(), schema, runner, journal, pools.callbacks());
        this.similarKnowledge = config.agents().knowledgeSimilarity <= 0 ? null : new SimilarKnowledge(
                parts.room, config.agents().knowledgeSimilarity, config.agents().knowledgePerQuestion);
    }

    static EngineRuntime build(EngineConfig config) {
        EnginePools pools = EnginePools.forThisMachine();
        DatabaseParts databases = DatabaseParts.build(config.registry(), config.sql(), config.cachedDatabases(),
                java.time.Duration.ofMillis(config.agents().schemaRefreshMillis));
        SchemaCatalog catalog = databases.catalog();
        Engine engine = new Engine(llmClient(config, pools.callbacks()), databases.sql(), catalog, databases.values());
        SchemaContext schema = new SchemaContext(engine.room(config.agents().access),
                SchemaViews.over(engine.sql()), new HistoryRenderer());
        StageJournal journal;
        try {
            journal = config.journal().open();
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
        return new EngineRuntime(config, engine, schema, pools, journal);
    }

    /**
     * The engine's one LLM client: the HTTP client, behind the on-disk response cache when one is configured; its
     * completions run on {@code callbacks} (the engine's pool, not the JVM's common pool).
     */
    static LlmClient llmClient(EngineConfig config, Executor callbacks) {
        LlmCacheSettings cache = config.llmCache();
        if (!cache.enabled()) {
            return OpenAiCompatibleClient.builder(config.llm()).callbackExecutor(callbacks).build();
        }
        Path dir = Path.of(cache.dir()).toAbsolutePath();
        ResponseCache responses = new ResponseCache(dir);
        LOG.info("LLM answers are {} the response cache {}", cache.cacheMode() == CacheMode.READ_ONLY
                ? "only replayed (a miss fails, nothing is sent) from" : "replayed from and recorded to", dir);
        return new CachingLlmClient(OpenAiCompatibleClient.builder(config.llm()).callbackExecutor(callbacks).build(),
                responses, cache.cacheMode(),
                config.llm()::modelFor, config.llm()::embeddingModelFor);
    }

    public Engine engine() {
        return engine;
    }

    /** The stage journal every stage's model calls go through ({@link StageJournal#NONE} when there is none). */
    public StageJournal journal() {
        return journal;
    }

    /** Where stage work runs (never a Flink task thread). */
    public Executor work() {
        return pools.work();
    }

    /** Where model replies resume (the engine's callback pool): nothing that blocks may run there. */
    public Executor callbacks() {
        return pools.callbacks();
    }

    public CandidateRunner candidateRunner() {
        return runner;
    }

    /**
     * The registry's stage of this name, built once from this engine's parts; null when it cannot be built in this
     * build (logged once; its operators then pass every request through).
     * @throws IllegalArgumentException when the registry has no stage of this name
     */
    public NamedStage stage(String name) {
        StageDeclaration declaration = StageRegistry.get(name);
        return stageByName.computeIfAbsent(name, n -> create(declaration)).orElse(null);
    }

    /** The preset's stages as this engine builds them, in order (for running a preset without Flink). */
    public Strategy strategy(String preset) {
        return new Strategy(preset, StageRegistry.stagesOf(preset).stream()
                .map(d -> stage(d.name())).filter(java.util.Objects::nonNull).toList());
    }

    private Optional<NamedStage> create(StageDeclaration declaration) {
        String name = declaration.name();
        try {
            NamedStage built = StageRegistry.build(declaration, parts);
            return Optional.of(similarKnowledge == null ? built
                    : new NamedStage(built.name(), new KnowledgeFirst(built.stage(), similarKnowledge)));
        } catch (IllegalStateException e) {
            LOG.warn("stage {} is not available in this build and is skipped: {}", name, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        try {
            engine.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the engine failed", e);
        } finally {
            try {
                journal.close();
            } finally {
                pools.close();
            }
        }
    }
}

package io.flowsql.engine;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.journal.StageJournalSource;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * Everything needed to build an {@link Engine} where an operator runs, in one serializable value that
 * also identifies the shared engine: operators of one TaskManager with equal configs share one.
 *
 * @param llm the endpoint, models per stage, limits and retries of the LLM client
 * @param sql the safe executor's limits
 * @param databases where the benchmark databases and their tables.json files are
 * @param agents the agents' knobs
 * @param defaultStrategy the preset a request without its own runs
 * @param voteComparison which notion of "same result" the candidate fingerprints (and so the vote) use
 * @param cachedDatabases schemas and value indexes kept in memory at most
 * @param llmCache whether the LLM client records and replays answers on disk
 * @param journal opens the stage journal every stage's model calls are checked against and recorded in
 * @param declaredDatabases PostgreSQL and DuckDB databases declared by id beside the SQLite folders (no secrets inside)
 */
public record EngineConfig(
        LlmClientConfig llm,
        SqlExecutorConfig sql,
        DatabaseLocator databases,
        AgentSettings agents,
        String defaultStrategy,
        ComparisonMode voteComparison,
        int cachedDatabases,
        LlmCacheSettings llmCache,
        StageJournalSource journal,
        List<DatabaseDeclaration> declaredDatabases) implements Serializable {

    private static final long serialVersionUID = 1L;

    public EngineConfig {
        Objects.requireNonNull(llm, "llm");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(databases, "databases");
        Objects.requireNonNull(agents, "agents");
        Objects.requireNonNull(defaultStrategy, "defaultStrategy");
        Objects.requireNonNull(voteComparison, "voteComparison");
        Objects.requireNonNull(llmCache, "llmCache");
        Objects.requireNonNull(journal, "journal");
        declaredDatabases = declaredDatabases == null ? List.of() : List.copyOf(declaredDatabases);
        if (cachedDatabases <= 0) {
            throw new IllegalArgumentException("cachedDatabases must be positive: " + cachedDatabases);
        }
    }

    /** Only SQLite folders. */
    public EngineConfig(LlmClientConfig llm, SqlExecutorConfig sql, DatabaseLocator databases, AgentSettings agents,
                        String defaultStrategy, ComparisonMode voteComparison, int cachedDatabases,
                        LlmCacheSettings llmCache, StageJournalSource journal) {
        this(llm, sql, databases, agents, defaultStrategy, voteComparison, cachedDatabases, llmCache, journal, List.of());
    }

    /** A copy that also serves these declared databases. */
    public EngineConfig withDeclaredDatabases(List<DatabaseDeclaration> declared) {
        return new EngineConfig(llm, sql, databases, agents, defaultStrategy, voteComparison, cachedDatabases,
                llmCache, journal, declared);
    }

    /** The SQLite folders and the declared databases. */
    /** The job's access policies ({@code tenants.*}), for the operators outside the stages (feedback, live library). */
    public io.flowsql.access.AccessPolicies access() {
        return agents.access;
    }

    public DatabaseRegistry registry() {
        return new DatabaseRegistry(databases, declaredDatabases);
    }

    /** Without a stage journal. */
    public EngineConfig(LlmClientConfig llm, SqlExecutorConfig sql, DatabaseLocator databases, AgentSettings agents,
                        String defaultStrategy, ComparisonMode voteComparison, int cachedDatabases,
                        LlmCacheSettings llmCache) {
        this(llm, sql, databases, agents, defaultStrategy, voteComparison, cachedDatabases, llmCache,
                StageJournalSource.NONE);
    }

    /** Without an LLM response cache or stage journal. */
    public EngineConfig(LlmClientConfig llm, SqlExecutorConfig sql, DatabaseLocator databases, AgentSettings agents,
                        String defaultStrategy, ComparisonMode voteComparison, int cachedDatabases) {
        this(llm, sql, databases, agents, defaultStrategy, voteComparison, cachedDatabases, LlmCacheSettings.none());
    }

    /** A copy whose LLM client records and replays answers as {@code cache} says. */
    public EngineConfig withLlmCache(LlmCacheSettings cache) {
        return new EngineConfig(llm, sql, databases, agents, defaultStrategy, voteComparison, cachedDatabases,
                cache, journal, declaredDatabases);
    }

    /** A copy whose stages journal their model calls in the journal {@code source} opens. */
    public EngineConfig withJournal(StageJournalSource source) {
        return new EngineConfig(llm, sql, databases, agents, defaultStrategy, voteComparison, cachedDatabases,
                llmCache, source, declaredDatabases);
    }

    /** Default executor limits, agent settings, Spider's comparison, 64 cached databases, no LLM cache. */
    public static EngineConfig of(LlmClientConfig llm, DatabaseLocator databases, String defaultStrategy) {
        return new EngineConfig(llm, SqlExecutorConfig.defaults(), databases, AgentSettings.defaults(),
                defaultStrategy, ComparisonMode.SPIDER_TEST_SUITE, 64);
    }
}

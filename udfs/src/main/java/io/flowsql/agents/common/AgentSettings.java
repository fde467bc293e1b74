package io.flowsql.agents.common;

import java.io.Serializable;

/**
 * The agents' knobs with the defaults the papers suggest, as a serializable POJO so the Flink job can
 * ship it to every operator and users can set each field from configuration (models are chosen per stage
 * by the LLM client, not here).
 */
public class AgentSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    // --- generation (OpenSearch-SQL)
    /** How many candidates a sampling generator asks for (OpenSearch-SQL's run_main.sh: n = 21; earlier here: 5). */
    public int candidates = 21;
    /** Sampling temperature for multi-candidate generation. */
    public double temperature = 0.7;

    // --- request parameters
    /**
     * Temperature and top_p per stage or task name (longest prefix), over what the stage registry declares
     * ({@code llm.stage.<stage>.temperature}, {@code llm.stage.<stage>.top-p}); empty: the declarations.
     */
    public java.util.LinkedHashMap<String, io.flowsql.llm.RequestParameters> stageSampling = new java.util.LinkedHashMap<>();

    // --- MAG-SQL
    /**
     * Schemas with at most this many columns (and at most {@link #linkSkipAvgColumns} per table) skip schema linking
     * and are shown in full. The authors' code: 25 (our earlier default: 30, with no per-table bound).
     */
    public int linkSkipColumnThreshold = 25;
    /**
     * Schemas whose tables average (integer division, as the authors' code) more than this many columns are linked
     * whatever their total (the authors' code: 5; {@code Integer.MAX_VALUE} turns the bound off).
     */
    public int linkSkipAvgColumns = 5;
    /** Columns the linker must rank per entity (the paper asks for at least 3). */
    public int columnsPerEntity = 3;
    /** Database values retrieved for a question. */
    public int valueMatches = 6;
    /** Sub-SQL refinement rounds per sub-SQL (the authors' code: 2; our earlier default: 3). */
    public int magRefineRounds = 2;
    /**
     * Refine a sub-SQL on any NULL in its result, a single row too (our earlier rule); false: only when the first
     * five rows of a result of several rows mix NULL and non-NULL values (the authors' code).
     */
    public boolean magRefineOnAnyNull = false;
    /** After a "no such column" error, show the full schema to the refiner and the later steps (the authors' code). */
    public boolean magSchemaFallback = true;
    /** Refine an empty nested query with the nested-query prompt (the authors' code). */
    public boolean magNestedHint = true;
    /** Post-process accepted sub-SQL: {@code a || ' ' || b} → {@code a, b}, {@code ASC LIMIT} → {@code ASC NULLS LAST LIMIT}. */
    public boolean magPostprocess = true;

    // --- MMSQL (see MmsqlRules and docs/AGENTS.md "MMSQL")
    /** The selector asks the model (ours); false: the full schema with three example rows per table (the official code). */
    public boolean mmsqlSelectByModel = true;
    /**
     * The selector runs only on schemas of more than this many columns (the paper uses it for large schemas; 30 is
     * MAC-SQL's bound, whose selector MMSQL's follows); 0: on every turn (our earlier rule).
     */
    public int mmsqlSelectAboveColumns = 30;
    /** The rewriter asks the model (ours); false: turns pass through unrewritten (the official code comments it out). */
    public boolean mmsqlRewriteByModel = true;
    /** An ambiguous turn's readings are answered by decomposer and refiner (the authors' code); false: one call each. */
    public boolean mmsqlReadingsDecomposeRefine = true;
    /** The turn as written is answered beside its readings (the authors' code); false: the readings only. */
    public boolean mmsqlReadingsOriginalQuestion = true;

    // --- SQLFixAgent
    /** Paraphrases (and candidates) the query crafter writes. */
    public int sqlfixCrafterK = 3;
    /** Attempts of the refiner (the paper: 3; earlier here: 2). */
    public int sqlfixRefineAttempts = 3;
    /** Fresh paraphrases (and their SQL) before every refinement attempt after the first (the paper); false: crafted once. */
    public boolean sqlfixCraftPerAttempt = true;
    /** Where the repair memory persists across requests (null: in memory only). */
    public String repairMemoryPath;
    /** Whether repairs made during the run join the memory (false: only those loaded at start are used, for replays). */
    public boolean repairMemoryLearns = true;
    /** Verified repairs built beforehand ({@code eval.sh repair-memory}, JSON lines) that the memory starts with; null: none. */
    public String repairMemorySeed;
    /** The seeded repairs of the question's own database are never shown (seeds built from the evaluation set). */
    public boolean repairSeedOtherDatabasesOnly = true;

    // --- OpenSearch-SQL dynamic few-shot
    /** The example library (JSON Lines, see docs/AGENTS.md); null: the generator's two fixed examples. */
    public String fewShotLibraryPath;
    /** Examples retrieved per question from the library. */
    public int fewShotExamples = 3;
    /**
     * Dialogue files in the SParC/CoSQL layout (comma-separated) the library is built from at first start when its file
     * does not exist yet (or, with no library file, kept in memory); blank: none.
     */
    public String fewShotSources = "";
    /** The library's examples of the question's own database are never chosen (the authors' cross-database split). */
    public boolean fewShotOtherDatabasesOnly = true;

    // --- OpenSearch-SQL extraction and embedding retrieval (opensearch.extract, opensearch.retrieve)
    /** Columns kept per question phrase by embedding retrieval (the authors' code: 4). */
    public int retrieveColumnsPerPhrase = 4;
    /** Least cosine of a question phrase and a column to retrieve it (the authors' code: 0.7). */
    public double retrieveColumnMinScore = 0.7;
    /**
     * Least cosine of an extracted value and a database value (the authors' code: Euclidean distance below 0.65 between
     * unit vectors, i.e. cosine above 1 - 0.65²/2 ≈ 0.79).
     */
    public double retrieveValueMinScore = 0.79;
    /** Database values the value index proposes per extracted value before embedding re-ranks them. */
    public int retrieveValueCandidates = 20;

    // --- OpenSearch-SQL correction
    /** Correction rounds per candidate whose execution shows a problem (opensearch.correct); 0 turns correction off. */
    public int opensearchCorrectRounds = 3;
    /**
     * After the rounds, a candidate still failing is generated afresh ({@code regenerate}, the authors' code) or kept
     * ({@code rounds}, the project's earlier behaviour); a question may choose with {@code options.stage_modes}.
     */
    public String opensearchCorrectMode = "regenerate";

    /**
     * Correct also a result holding NULL or of a shape that does not fit the question (the project's earlier rule);
     * false: errors and empty results only (the authors' code), so a right answer with a NULL is never replaced.
     */
    public boolean opensearchCorrectOnResult = false;
    /** Run opensearch.adherence (the project's addition; the authors' code has no such step); off by default. */
    public boolean opensearchAdherence = false;

    // --- OpenSearch-SQL alignment
    /**
     * {@code model}: the model aligns (style, function and agent checks, as the authors' code); {@code rules}: the four
     * fixed JSqlParser rules below, kept as an ablation. A question may choose with {@code options.stage_modes}.
     */
    public String opensearchAlignMode = "model";
    public boolean alignValues = true;
    public boolean alignMaxSubqueryToOrderBy = true;
    public boolean alignNotNullOnOrderBy = true;
    /** Rewrite {@code x = NULL} / {@code x <> NULL} (never true in SQL) to {@code x IS NULL} / {@code x IS NOT NULL}. */
    public boolean alignNullComparison = true;

    // --- schema retrieval and access (schema.retrieve)
    /** Tokens the schema shown in one prompt may take; a whole schema under it is shown uncut (schema.token-budget). */
    public int schemaTokenBudget = io.flowsql.sql.retrieve.SchemaRetriever.DEFAULT_TOKEN_BUDGET;
    /** How old a database's schema in the catalog may get before it is read again (0 = never; schema.refresh-interval). */
    public long schemaRefreshMillis = 5 * 60_000L;
    /** Which tenant may ask which databases and tables (tenants.* options); everything allowed by default. */
    public io.flowsql.access.AccessPolicies access = io.flowsql.access.AccessPolicies.allowAll();
    /** Rows kept in a candidate's preview. */
    public int previewRows = 10;

    public AgentSettings() {}

    public static AgentSettings defaults() {
        return new AgentSettings();
    }

    // --- knowledge by similarity (knowledge.similarity)
    /** Least cosine between a question and a knowledge entry it does not name for the entry to be used; 0: off. */
    public double knowledgeSimilarity = 0;
    /** Knowledge entries one question's prompts carry at most (term matches first). */
    public int knowledgePerQuestion = 5;

    // --- answer.summarize
    /** Presets (comma-separated) whose answers get a plain-language summary unless the question says no; "": none. */
    public String summarizePresets = "";

    /** {@link #summarizePresets} as a set of preset names. */
    public java.util.Set<String> summarizePresetSet() {
        java.util.Set<String> set = new java.util.LinkedHashSet<>();
        for (String p : summarizePresets == null ? new String[0] : summarizePresets.split(",")) {
            if (!p.isBlank()) {
                set.add(p.strip());
            }
        }
        return set;
    }
}

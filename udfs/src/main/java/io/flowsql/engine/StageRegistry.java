package io.flowsql.engine;

import io.flowsql.agents.magsql.EntitySchemaLinker;
import io.flowsql.agents.magsql.MagSqlDecomposeStage;
import io.flowsql.agents.magsql.MagSqlGenerateStage;
import io.flowsql.agents.magsql.MagSqlLinkStage;
import io.flowsql.agents.magsql.MagSqlRules;
import io.flowsql.agents.magsql.SoftSchemaLinker;
import io.flowsql.agents.magsql.SubSqlGenerator;
import io.flowsql.agents.magsql.SubSqlRefiner;
import io.flowsql.agents.magsql.TableSummarizer;
import io.flowsql.agents.magsql.TargetsConditionsDecomposer;
import io.flowsql.agents.mmsql.DecomposeStage;
import io.flowsql.agents.mmsql.MmsqlRules;
import io.flowsql.agents.mmsql.QuestionDetector;
import io.flowsql.agents.mmsql.QuestionDetectorStage;
import io.flowsql.agents.mmsql.ReadingSolver;
import io.flowsql.agents.mmsql.ReadingSqlGenerator;
import io.flowsql.agents.mmsql.ReadingsStage;
import io.flowsql.agents.mmsql.RefineStage;
import io.flowsql.agents.mmsql.RewriteStage;
import io.flowsql.agents.mmsql.SchemaSelectStage;
import io.flowsql.agents.opensearch.FreshGeneration;
import io.flowsql.agents.opensearch.OpenSearchAlignStage;
import io.flowsql.agents.opensearch.OpenSearchGenerateStage;
import io.flowsql.agents.opensearch.OpenSearchVoteStage;
import io.flowsql.agents.opensearch.ProgressiveGenerator;
import io.flowsql.agents.opensearch.adherence.AdherenceStage;
import io.flowsql.agents.opensearch.extract.ExtractionStage;
import io.flowsql.agents.opensearch.extract.RetrievalStage;
import io.flowsql.agents.opensearch.align.AlignmentRules;
import io.flowsql.agents.opensearch.align.model.ModelAligner;
import io.flowsql.agents.opensearch.correct.OpenSearchCorrectStage;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.agents.sqlfix.AttemptCrafting;
import io.flowsql.agents.sqlfix.QueryCrafter;
import io.flowsql.agents.sqlfix.QueryCrafterStage;
import io.flowsql.agents.sqlfix.SqlRefiner;
import io.flowsql.agents.sqlfix.SqlRefinerStage;
import io.flowsql.agents.sqlfix.SqlReviewStage;
import io.flowsql.agents.sqlfix.SqlReviewer;
import io.flowsql.agents.retrieve.SchemaRetrieveStage;
import io.flowsql.agents.answer.SummarizeStage;
import io.flowsql.llm.RequestParameters;
import io.flowsql.pipeline.ExecuteCandidatesStage;
import io.flowsql.sql.retrieve.SchemaRetriever;
import io.flowsql.pipeline.FinalizeStage;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.Strategy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.flowsql.engine.StageDeclaration.of;
import static io.flowsql.pipeline.StageKind.EXECUTE_CANDIDATES;
import static io.flowsql.pipeline.StageKind.LLM;
import static io.flowsql.pipeline.StageKind.LOCAL;

/**
 * The one place a stage is declared (name, kind, prompts, presets, factory), in the one order every preset follows.
 * The presets, the Flink job's graph (one chain of operators per preset), the plain-Java {@link io.flowsql.pipeline.Pipeline},
 * the metrics and the docs' stage table all come from here; a test fails if a stage is named anywhere else in the
 * main code. Adding a stage = its declaration here, its class, its prompts, its test (and a simulator responder
 * for each of its prompts' tasks, which a test checks against these declarations).
 */
public final class StageRegistry {
    public static final String MAG_SQL = "mag-sql";
    public static final String SQLFIX = "sqlfix";
    public static final String OPENSEARCH = "opensearch";
    public static final String MMSQL = "mmsql";
    /** Every stage, in order. */
    public static final String FULL = "full";

    /** The presets, in the order the documentation lists them. */
    private static final List<String> PRESETS = List.of(MAG_SQL, SQLFIX, OPENSEARCH, MMSQL, FULL);

    private static final List<StageDeclaration> STAGES = List.of(
            // Schema retrieval first: no schema text enters a prompt before the question's schema is bounded.
            of("schema.retrieve", LOCAL, p -> new SchemaRetrieveStage(p.schema,
                    SchemaRetriever.lexical(p.settings.schemaTokenBudget), p.settings.valueMatches))
                    .in(MAG_SQL, SQLFIX, OPENSEARCH, MMSQL),
            of("mmsql.rewrite", LLM, p -> new RewriteStage(p.call, p.schema, p.settings.mmsqlRewriteByModel))
                    .prompts("mmsql/rewrite").in(MMSQL).sends(0.0),
            of("mmsql.select", LLM, p -> new SchemaSelectStage(p.call, p.schema, MmsqlRules.from(p.settings),
                    p.settings.mmsqlSelectAboveColumns))
                    .prompts("mmsql/select").in(MMSQL).sends(0.0),
            of("mmsql.detect", LLM, p -> new QuestionDetectorStage(new QuestionDetector(p.call), p.frames))
                    .prompts("mmsql/detect").in(MMSQL).sends(0.0),
            of("magsql.link", LLM, p -> new MagSqlLinkStage(new SoftSchemaLinker(new TableSummarizer(p.call),
                    new EntitySchemaLinker(p.call, p.settings.columnsPerEntity), p.schema.views(),
                    p.settings.linkSkipColumnThreshold, p.settings.linkSkipAvgColumns, p.settings.valueMatches), p.schema))
                    .prompts("magsql/summarize", "magsql/link").in(MAG_SQL).sends(0.1),
            of("magsql.decompose", LLM, p -> new MagSqlDecomposeStage(new TargetsConditionsDecomposer(p.call), p.schema))
                    .prompts("magsql/decompose").in(MAG_SQL).sends(0.1),
            of("magsql.generate", LLM, p -> new MagSqlGenerateStage(new SubSqlGenerator(p.call),
                    new SubSqlRefiner(p.call, p.sql), p.schema, MagSqlRules.from(p.settings)))
                    .prompts("magsql/generate_first", "magsql/generate_next", "magsql/refine", "magsql/refine_nested")
                    .in(MAG_SQL).sends(0.1),
            of("mmsql.decompose", LLM, p -> new DecomposeStage(p.call, p.schema))
                    .prompts("mmsql/decompose").in(MMSQL).sends(0.0),
            of("opensearch.fewshot", LOCAL, p -> new FewShotStage(p.schema.doors(), p.settings.fewShotExamples,
                    p.settings.fewShotOtherDatabasesOnly))
                    .in(OPENSEARCH),
            // OpenSearch-SQL's extraction: the model's entities/columns/values and SELECT order, then embedding retrieval
            of("opensearch.extract", LLM, p -> new ExtractionStage(p.call, p.schema))
                    .prompts("opensearch/extract", "opensearch/extract_order").in(OPENSEARCH)
                    .sends(0.0).sends("opensearch.extract.order", 0.3, null),
            of("opensearch.retrieve", LLM, p -> new RetrievalStage(p.schema,
                    p.settings.retrieveColumnsPerPhrase, p.settings.retrieveColumnMinScore,
                    p.settings.retrieveValueMinScore, p.settings.retrieveValueCandidates))
                    .in(OPENSEARCH),
            // SQLFixAgent repairs the answer of a base generator: one OpenSearch-style generation.
            of("opensearch.generate", LLM, p -> new OpenSearchGenerateStage(
                    new ProgressiveGenerator(p.call, p.settings.candidates, p.settings.temperature), p.schema,
                    p.settings.valueMatches))
                    .prompts("opensearch/generate").in(OPENSEARCH, SQLFIX).sends(0.7),
            of("opensearch.adherence", LLM, p -> new AdherenceStage(p.call, p.schema, p.questionValues(),
                    p.settings.opensearchAdherence))
                    .prompts("opensearch/adherence").in(OPENSEARCH).sends(0.0),
            // alignment by the model (the authors' three steps), or the four fixed rules as an ablation
            of("opensearch.align", LLM, p -> new OpenSearchAlignStage(
                    AlignmentRules.fromSettings(p.settings, p.sql),
                    new ModelAligner(p.call), null, p.schema, p.questionValues(),
                    p.settings.opensearchAlignMode))
                    .prompts(ModelAligner.PROMPTS.toArray(String[]::new))
                    .in(OPENSEARCH).sends(0.0).sends("opensearch.align.function", 0.1, null),
            of("candidates.execute", EXECUTE_CANDIDATES, p -> new ExecuteCandidatesStage(p.runner))
                    .in(MAG_SQL, SQLFIX, OPENSEARCH, MMSQL),
            // correction rounds by error class, then (mode regenerate) a fresh generation with opensearch.generate's prompt
            of("opensearch.correct", LLM, p -> new OpenSearchCorrectStage(p.corrector(), p.schema, p.questionValues(),
                    new FreshGeneration(p.call, p.schema, p.settings.valueMatches),
                    p.settings.opensearchCorrectMode))
                    .prompts("opensearch/correct_syntax", "opensearch/correct_schema", "opensearch/correct_failed",
                            "opensearch/correct_empty", "opensearch/correct_nulls", "opensearch/correct_shape")
                    // the corrector raises the temperature by round/5 from here (ExecutionCorrector)
                    .in(OPENSEARCH).sends("opensearch.correct", 0.2, 0.3),
            // MMSQL's refiner repairs with OpenSearch's corrector (its opensearch/correct_* prompts) and writes
            // directly with its own prompt when the decomposer was switched off.
            of("mmsql.refine", LLM, p -> new RefineStage(p.call, p.schema, p.runner, p.corrector()))
                    .prompts("mmsql/generate").in(MMSQL).sends(0.0),
            of("opensearch.vote", LOCAL, p -> new OpenSearchVoteStage()).in(OPENSEARCH),
            of("sqlfix.review", LLM, p -> new SqlReviewStage(new SqlReviewer(p.call), p.sql, p.frames))
                    .prompts("sqlfix/review").in(SQLFIX).sends(0.0),
            of("sqlfix.craft", LLM, p -> new QueryCrafterStage(new QueryCrafter(p.call), p.frames, p.settings.sqlfixCrafterK))
                    .prompts("sqlfix/craft-paraphrase", "sqlfix/craft-generate").in(SQLFIX)
                    .sends(0.0).sends("sqlfix.craft.paraphrase", 0.7, null),
            of("sqlfix.execute", EXECUTE_CANDIDATES, p -> new ExecuteCandidatesStage(p.runner)).in(SQLFIX),
            of("sqlfix.refine", LLM, p -> new SqlRefinerStage(
                    new SqlRefiner(p.call, p.sql, p.settings.sqlfixRefineAttempts,
                            p.settings.repairSeedOtherDatabasesOnly, !p.settings.sqlfixCraftPerAttempt ? null
                            : new AttemptCrafting(new QueryCrafter(p.call), p.runner, p.settings.sqlfixCrafterK)), p.frames))
                    .prompts("sqlfix/refine").in(SQLFIX).sends(0.0),
            // MMSQL (Guo et al., Fig. 3): readings only for ambiguous turns, after the clarification is settled.
            // As the authors' code: each reading (and the turn as written) through the decomposer and the refiner.
            of("mmsql.readings", LLM, p -> new ReadingsStage(new ReadingSqlGenerator(p.call),
                    new ReadingSolver(p.call, p.schema, p.runner, p.corrector(), "mmsql.decompose", "mmsql.refine"),
                    p.sql, p.frames, MmsqlRules.from(p.settings)))
                    .prompts("mmsql/readings").in(MMSQL).sends(0.0),
            of("answer.finalize", LOCAL, p -> new FinalizeStage()).in(MAG_SQL, SQLFIX, OPENSEARCH, MMSQL),
            // a plain-language answer, only for requests that ask for one (options.summarize, agents.summarize-presets)
            of("answer.summarize", LLM, p -> new SummarizeStage(p.call, p.frames, p.settings.summarizePresetSet(),
                    SummarizeStage.ResultSlice.DEFAULT))
                    .prompts("answer/summarize").in(MAG_SQL, SQLFIX, OPENSEARCH, MMSQL).sends(0.0));

    private static final Map<String, StageDeclaration> BY_NAME = byName();

    private StageRegistry() {}

    private static Map<String, StageDeclaration> byName() {
        Map<String, StageDeclaration> map = new LinkedHashMap<>();
        for (StageDeclaration d : STAGES) {
            if (map.put(d.name(), d) != null) {
                throw new IllegalStateException("stage declared twice: " + d.name());
            }
            for (String preset : d.presets()) {
                if (!PRESETS.contains(preset) || FULL.equals(preset)) {
                    throw new IllegalStateException("stage " + d.name() + " names an unknown preset " + preset);
                }
            }
        }
        return map;
    }

    /** Every stage, in the one order all presets follow. */
    public static List<StageDeclaration> all() {
        return STAGES;
    }

    /** Every stage name, in order. */
    public static List<String> names() {
        return STAGES.stream().map(StageDeclaration::name).toList();
    }

    public static Optional<StageDeclaration> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** @throws IllegalArgumentException naming the stages when there is no stage {@code name} */
    public static StageDeclaration get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(
                "no stage named '" + name + "'; stages: " + String.join(", ", names())));
    }

    /**
     * The prompt pairs a stage asks the model with that another stage declares (and whose tasks are sent with that
     * stage's parameters), by stage name: {@code sqlfix.refine} crafts fresh paraphrases and candidates before each
     * attempt after the first ({@code agents.sqlfix-craft-per-attempt}, default on) with the query crafter's prompts.
     * docs/AGENTS.md lists them under the stage that sends them.
     */
    public static List<String> borrowedPrompts(String stage) {
        return "sqlfix.refine".equals(stage) ? List.of("sqlfix/craft-paraphrase", "sqlfix/craft-generate") : List.of();
    }

    /**
     * The sampling every stage declares, by task name (a stage name or a request stage under it): what
     * {@link io.flowsql.agents.common.StageSampling} sends when configuration does not override it.
     */
    public static Map<String, RequestParameters> requestParameters() {
        Map<String, RequestParameters> all = new LinkedHashMap<>();
        for (StageDeclaration d : STAGES) {
            all.putAll(d.sends());
        }
        return all;
    }

    /**
     * The tasks whose reply schema carries SQL (the generation and refinement steps, whose budgets are at least 1,000
     * tokens as the authors'), read from the stages' prompt resources.
     */
    public static java.util.Set<String> sqlWritingTasks() {
        java.util.Set<String> tasks = new java.util.TreeSet<>();
        for (StageDeclaration stage : STAGES) {
            for (String base : stage.prompts()) {
                io.flowsql.agents.common.PromptPair pair = io.flowsql.agents.common.PromptPair.load(base);
                if (pair.reply() != null && pair.reply().schema().findValue("sql") != null) {
                    tasks.add(pair.task());
                }
            }
        }
        return tasks;
    }

    /** The preset names, in the order the documentation lists them. */
    public static List<String> presetNames() {
        return PRESETS;
    }

    public static boolean isPreset(String name) {
        return PRESETS.contains(name);
    }

    /** The stages of a preset, in order. @throws IllegalArgumentException for an unknown preset, naming the presets */
    public static List<StageDeclaration> stagesOf(String preset) {
        if (!isPreset(preset)) {
            throw new IllegalArgumentException("unknown strategy '" + preset + "'; valid strategies: "
                    + String.join(", ", PRESETS));
        }
        return STAGES.stream().filter(d -> FULL.equals(preset) || d.presets().contains(preset)).toList();
    }

    /** The stage built from {@code parts} under its declared name. */
    public static NamedStage build(StageDeclaration declaration, StageParts parts) {
        return new NamedStage(declaration.name(), declaration.factory().apply(parts));
    }

    /** The preset's stages built from {@code parts}, in order (stages built together share the parts' repair memory). */
    public static Strategy build(String preset, StageParts parts) {
        return new Strategy(preset, stagesOf(preset).stream().map(d -> build(d, parts)).toList());
    }

    /** The preset built from an engine's parts with {@link StageParts#standard}. */
    public static Strategy build(String preset, Engine engine, io.flowsql.agents.common.AgentSettings settings) {
        return build(preset, StageParts.standard(engine, settings));
    }
}

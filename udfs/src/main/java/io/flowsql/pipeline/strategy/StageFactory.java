package io.flowsql.pipeline.strategy;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.StageNames;
import io.flowsql.agents.magsql.EntitySchemaLinker;
import io.flowsql.agents.magsql.MagSqlDecomposeStage;
import io.flowsql.agents.magsql.MagSqlGenerateStage;
import io.flowsql.agents.magsql.MagSqlLinkStage;
import io.flowsql.agents.magsql.SoftSchemaLinker;
import io.flowsql.agents.magsql.SubSqlGenerator;
import io.flowsql.agents.magsql.SubSqlRefiner;
import io.flowsql.agents.magsql.TableSummarizer;
import io.flowsql.agents.magsql.TargetsConditionsDecomposer;
import io.flowsql.agents.mmsql.DecomposeStage;
import io.flowsql.agents.mmsql.QuestionDetector;
import io.flowsql.agents.mmsql.RefineStage;
import io.flowsql.agents.mmsql.RewriteStage;
import io.flowsql.agents.mmsql.SchemaSelectStage;
import io.flowsql.agents.mmsql.QuestionDetectorStage;
import io.flowsql.agents.mmsql.ReadingSqlGenerator;
import io.flowsql.agents.mmsql.ReadingsStage;
import io.flowsql.agents.opensearch.OpenSearchAlignStage;
import io.flowsql.agents.opensearch.OpenSearchGenerateStage;
import io.flowsql.agents.opensearch.OpenSearchVoteStage;
import io.flowsql.agents.opensearch.QuestionValues;
import io.flowsql.agents.opensearch.adherence.AdherenceStage;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.agents.opensearch.correct.OpenSearchCorrectStage;
import io.flowsql.agents.opensearch.ProgressiveGenerator;
import io.flowsql.agents.opensearch.align.AlignmentRules;
import io.flowsql.agents.sqlfix.QueryCrafter;
import io.flowsql.agents.sqlfix.QueryCrafterStage;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.agents.sqlfix.SqlRefiner;
import io.flowsql.agents.sqlfix.SqlRefinerStage;
import io.flowsql.agents.sqlfix.SqlReviewStage;
import io.flowsql.agents.sqlfix.SqlReviewer;
import io.flowsql.engine.Engine;
import io.flowsql.journal.StageJournal;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.ExecuteCandidatesStage;
import io.flowsql.pipeline.FinalizeStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.sql.compare.ComparisonMode;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Builds any stage by its name from the engine's shared parts and the settings, so presets (and the Flink
 * job's full chain) are lists of names and each stage is constructed in exactly one place.
 */
public final class StageFactory {
    private final Engine engine;
    private final AgentSettings settings;
    private final SchemaContext schema;
    private final AgentCall call;
    private final CandidateRunner runner;
    private final Function<RequestContext, PromptFields> frames;
    private final RepairMemory repairs;
    private final ExampleLibrary examples;

    public StageFactory(Engine engine, AgentSettings settings, SchemaContext schema, CandidateRunner runner) {
        this(engine, settings, schema, runner, StageJournal.NONE);
    }

    /** A factory whose stages check every model call against {@code journal} and record it there (see {@link AgentCall}). */
    public StageFactory(Engine engine, AgentSettings settings, SchemaContext schema, CandidateRunner runner,
                        StageJournal journal) {
        this.engine = engine;
        this.settings = settings;
        this.schema = schema;
        this.call = new AgentCall(engine.llm(), journal);
        this.runner = runner;
        this.frames = ctx -> PromptFields.of(ctx, schema);
        Path repairFile = settings.repairMemoryPath == null || settings.repairMemoryPath.isBlank()
                ? null : Path.of(settings.repairMemoryPath);
        this.examples = settings.fewShotLibraryPath == null || settings.fewShotLibraryPath.isBlank()
                ? null : ExampleLibrary.shared(Path.of(settings.fewShotLibraryPath));
        this.repairs = !settings.repairMemoryLearns ? RepairMemory.frozen(repairFile)
                : repairFile == null ? RepairMemory.inMemory() : RepairMemory.shared(repairFile);
    }

    /**
     * A factory with the engine's usual companions: schemas shown through the database layer's renderer, and
     * candidates run and fingerprinted as Spider's test-suite evaluator compares results.
     */
    public static StageFactory standard(Engine engine, AgentSettings settings) {
        SchemaContext schema = new SchemaContext(engine.catalog(),
                SchemaViews.over(engine.sql()), new HistoryRenderer());
        CandidateRunner runner = new CandidateRunner(engine.sql(), ComparisonMode.SPIDER_TEST_SUITE, settings.previewRows);
        return new StageFactory(engine, settings, schema, runner);
    }

    /** @throws IllegalArgumentException for a name that is no stage */
    public Stage create(String name) {
        return switch (name) {
            case StageNames.MMSQL_REWRITE -> new RewriteStage(call, schema);
            case StageNames.MMSQL_SELECT -> new SchemaSelectStage(call, schema);
            case StageNames.MMSQL_DETECT -> new QuestionDetectorStage(new QuestionDetector(call), frames);
            case StageNames.MMSQL_DECOMPOSE -> new DecomposeStage(call, schema);
            case StageNames.MMSQL_REFINE -> new RefineStage(call, schema, runner,
                    new ExecutionCorrector(call, runner, settings.opensearchCorrectRounds));
            case StageNames.MMSQL_READINGS -> new ReadingsStage(new ReadingSqlGenerator(call), engine.sql(), frames);
            case StageNames.SQLFIX_REVIEW -> new SqlReviewStage(new SqlReviewer(call), engine.sql(), frames);
            case StageNames.SQLFIX_CRAFT -> new QueryCrafterStage(new QueryCrafter(call), frames, settings.sqlfixCrafterK);
            case StageNames.SQLFIX_REFINE -> new SqlRefinerStage(
                    new SqlRefiner(call, engine.sql(), repairs, settings.sqlfixRefineAttempts), frames);
            case StageNames.CANDIDATES_EXECUTE, StageNames.SQLFIX_EXECUTE -> new ExecuteCandidatesStage(name, runner);
            case StageNames.ANSWER_FINALIZE -> new FinalizeStage();
            case StageNames.MAGSQL_LINK -> new MagSqlLinkStage(new SoftSchemaLinker(new TableSummarizer(call),
                    new EntitySchemaLinker(call, settings.columnsPerEntity), engine.values(), schema.views(),
                    settings.linkSkipColumnThreshold, settings.valueMatches), schema);
            case StageNames.MAGSQL_DECOMPOSE -> new MagSqlDecomposeStage(new TargetsConditionsDecomposer(call), schema);
            case StageNames.MAGSQL_GENERATE -> new MagSqlGenerateStage(new SubSqlGenerator(call),
                    new SubSqlRefiner(call, engine.sql(), settings.magRefineRounds), schema);
            case StageNames.OPENSEARCH_FEWSHOT -> new FewShotStage(examples, engine.catalog(), settings.fewShotExamples);
            case StageNames.OPENSEARCH_GENERATE -> new OpenSearchGenerateStage(
                    new ProgressiveGenerator(call, settings.candidates, settings.temperature), schema, engine.values(),
                    settings.valueMatches, examples);
            case StageNames.OPENSEARCH_ALIGN -> new OpenSearchAlignStage(
                    AlignmentRules.fromSettings(settings, engine.sql(), engine.values()), engine.catalog());
            case StageNames.OPENSEARCH_VOTE -> new OpenSearchVoteStage();
            case StageNames.OPENSEARCH_ADHERENCE -> new AdherenceStage(call, schema,
                    new QuestionValues(engine.values(), settings.valueMatches));
            case StageNames.OPENSEARCH_CORRECT -> new OpenSearchCorrectStage(
                    new ExecutionCorrector(call, runner, settings.opensearchCorrectRounds), schema,
                    new QuestionValues(engine.values(), settings.valueMatches));
            default -> throw new IllegalArgumentException("no stage named '" + name + "'; stages: "
                    + String.join(", ", StrategyCatalog.canonicalOrder()));
        };
    }
}

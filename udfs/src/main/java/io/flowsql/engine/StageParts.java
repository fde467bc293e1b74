package io.flowsql.engine;

import io.flowsql.access.DataDoors;
import io.flowsql.access.Scoped;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.agents.common.StageSampling;
import io.flowsql.agents.opensearch.QuestionValues;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.journal.StageJournal;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageSql;
import io.flowsql.sql.compare.ComparisonMode;

import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * What the registry's stage factories build stages from: the engine's shared parts, the agents' settings, the
 * schema context, the journaled model call, the candidate runner, and the room that holds the few shared agent
 * companions (repair memory, example library, embedding retriever), which stages reach only through a request's door.
 * One per engine; every stage of every preset is built from the same parts.
 */
public final class StageParts {
    final Engine engine;
    final AgentSettings settings;
    final SchemaContext schema;
    final AgentCall call;
    final CandidateRunner runner;
    /** Where stages run model-written SQL themselves: the engine's executor behind the job's access policies. */
    final StageSql sql;
    final Function<RequestContext, PromptFields> frames;
    /**
     * The room the stages read through: the engine's data under the access policies, holding the repair memory, the
     * few-shot library and OpenSearch-SQL's embedding retriever (whose per-database column vectors live as long as the
     * parts); a stage sees each only through a request's door.
     */
    final DataDoors room;

    /** Parts whose stages check every model call against {@code journal} and record it there (see {@link AgentCall}). */
    public StageParts(Engine engine, AgentSettings settings, SchemaContext schema, CandidateRunner runner,
                      StageJournal journal) {
        this(engine, settings, schema, runner, journal, Runnable::run);
    }

    /**
     * As above, and every model reply resumes on {@code replies} (the engine's callback pool), never on the journal's
     * acknowledgement thread; what blocks after a reply (SQL) goes on to the stage's work pool (see
     * {@link io.flowsql.pipeline.StageSql#offload}).
     */
    public StageParts(Engine engine, AgentSettings settings, SchemaContext schema, CandidateRunner runner,
                      StageJournal journal, Executor replies) {
        this.engine = engine;
        this.settings = settings;
        this.call = new AgentCall(engine.llm(), journal, replies)
                .withSampling(StageSampling.of(StageRegistry.requestParameters(), settings.stageSampling));
        this.runner = runner;
        Scoped<?>[] learned = {repairMemory(settings), fewShotLibrary(settings, engine), new EmbeddingRetriever(engine.llm())};
        this.room = schema.doors().holding(learned);
        this.schema = schema.through(room);
        this.sql = new StageSql(engine.room(settings.access).holding(learned));
        this.frames = this.schema::promptFields;
    }

    /** The configured repair memory: its file (learning or frozen) or in memory, seeded when a seed file is named. */
    private static RepairMemory repairMemory(AgentSettings settings) {
        Path repairFile = settings.repairMemoryPath == null || settings.repairMemoryPath.isBlank()
                ? null : Path.of(settings.repairMemoryPath);
        RepairMemory memory = !settings.repairMemoryLearns ? RepairMemory.frozen(repairFile)
                : repairFile == null ? RepairMemory.inMemory() : RepairMemory.shared(repairFile);
        return settings.repairMemorySeed == null || settings.repairMemorySeed.isBlank() ? memory
                : memory.seededWith(Path.of(settings.repairMemorySeed.strip()));
    }

    /**
     * The configured few-shot library: its file, or built from the configured dialogue files at first start (written
     * to the file when one is named); null when neither is configured.
     */
    private static ExampleLibrary fewShotLibrary(AgentSettings settings, Engine engine) {
        Path file = settings.fewShotLibraryPath == null || settings.fewShotLibraryPath.isBlank()
                ? null : Path.of(settings.fewShotLibraryPath);
        java.util.List<Path> sources = settings.fewShotSources == null ? java.util.List.of()
                : java.util.Arrays.stream(settings.fewShotSources.split(",")).map(String::strip)
                        .filter(s -> !s.isEmpty()).map(Path::of).toList();
        if (sources.isEmpty()) {
            return file == null ? null : ExampleLibrary.shared(file);
        }
        return ExampleLibrary.sharedOrBuilt(file, sources, engine.catalog());
    }

    /**
     * Parts with the engine's usual companions and no journal: schemas shown through the database layer's renderer,
     * candidates run and fingerprinted as Spider's test-suite evaluator compares results.
     */
    public static StageParts standard(Engine engine, AgentSettings settings) {
        SchemaContext schema = new SchemaContext(engine.room(settings.access),
                SchemaViews.over(engine.sql()), new HistoryRenderer());
        CandidateRunner runner = new CandidateRunner(engine.room(settings.access), ComparisonMode.SPIDER_TEST_SUITE,
                settings.previewRows);
        return new StageParts(engine, settings, schema, runner, StageJournal.NONE);
    }

    /** The question values matched in the database, as the OpenSearch stages show them. */
    QuestionValues questionValues() {
        return new QuestionValues(schema, settings.valueMatches);
    }

    /** OpenSearch-SQL's correction by error class, shared by {@code opensearch.correct} and MMSQL's refiner. */
    ExecutionCorrector corrector() {
        return new ExecutionCorrector(call, runner, settings.opensearchCorrectRounds, settings.opensearchCorrectOnResult);
    }
}

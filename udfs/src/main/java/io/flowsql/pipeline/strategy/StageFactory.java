package io.flowsql.pipeline.strategy;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.StageNames;
import io.flowsql.agents.mmsql.QuestionDetector;
import io.flowsql.agents.mmsql.QuestionDetectorStage;
import io.flowsql.agents.mmsql.ReadingSqlGenerator;
import io.flowsql.agents.mmsql.ReadingsStage;
import io.flowsql.agents.sqlfix.QueryCrafter;
import io.flowsql.agents.sqlfix.QueryCrafterStage;
import io.flowsql.agents.sqlfix.QuestionFrame;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.agents.sqlfix.SqlRefiner;
import io.flowsql.agents.sqlfix.SqlRefinerStage;
import io.flowsql.agents.sqlfix.SqlReviewStage;
import io.flowsql.agents.sqlfix.SqlReviewer;
import io.flowsql.engine.Engine;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.ExecuteCandidatesStage;
import io.flowsql.pipeline.FinalizeStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Builds any stage by its name from the engine's shared parts and the settings, so presets (and the Flink
 * job's full chain) are lists of names and each stage is constructed in exactly one place.
 */
public final class StageFactory {
    private final Engine engine;
    private final AgentSettings settings;
    private final AgentCall call;
    private final CandidateRunner runner;
    private final Function<RequestContext, QuestionFrame> frames;
    private final RepairMemory repairs;

    public StageFactory(Engine engine, AgentSettings settings, SchemaContext schema, CandidateRunner runner) {
        this.engine = engine;
        this.settings = settings;
        this.call = new AgentCall(engine.llm());
        this.runner = runner;
        this.frames = ctx -> QuestionFrame.of(ctx, schema);
        this.repairs = settings.repairMemoryPath == null || settings.repairMemoryPath.isBlank()
                ? RepairMemory.inMemory() : RepairMemory.shared(Path.of(settings.repairMemoryPath));
    }

    /** The repair memory the SQLFixAgent stages of this factory share. */
    public RepairMemory repairMemory() {
        return repairs;
    }

    /** @throws IllegalArgumentException for a name that is no stage; IllegalStateException for a stage not wired here yet */
    public Stage create(String name) {
        return switch (name) {
            case StageNames.MMSQL_DETECT -> new QuestionDetectorStage(new QuestionDetector(call), frames);
            case StageNames.MMSQL_READINGS -> new ReadingsStage(new ReadingSqlGenerator(call), engine.sql(), frames);
            case StageNames.SQLFIX_REVIEW -> new SqlReviewStage(new SqlReviewer(call), engine.sql(), frames);
            case StageNames.SQLFIX_CRAFT -> new QueryCrafterStage(new QueryCrafter(call), frames, settings.sqlfixCrafterK);
            case StageNames.SQLFIX_REFINE -> new SqlRefinerStage(
                    new SqlRefiner(call, engine.sql(), repairs, settings.sqlfixRefineAttempts), frames);
            case StageNames.CANDIDATES_EXECUTE, StageNames.SQLFIX_EXECUTE -> new ExecuteCandidatesStage(name, runner);
            case StageNames.ANSWER_FINALIZE -> new FinalizeStage();
            case StageNames.MAGSQL_LINK, StageNames.MAGSQL_DECOMPOSE, StageNames.MAGSQL_GENERATE,
                 StageNames.OPENSEARCH_GENERATE, StageNames.OPENSEARCH_ALIGN, StageNames.OPENSEARCH_VOTE ->
                    throw new IllegalStateException("stage " + name + " is not wired into the StageFactory yet");
            default -> throw new IllegalArgumentException("no stage named '" + name + "'; stages: "
                    + String.join(", ", StrategyCatalog.canonicalOrder()));
        };
    }
}

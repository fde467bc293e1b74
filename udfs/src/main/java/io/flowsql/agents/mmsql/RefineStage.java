package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.opensearch.correct.ErrorClass;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * {@code mmsql.refine}: MMSQL's SQL refiner executes the decomposer's SQL and repairs it with the database's
 * feedback. The repair is the same thing as OpenSearch-SQL's correction by error class, so it reuses
 * {@link ExecutionCorrector} (its calls are the {@code opensearch.correct.<class>} tasks). With the decomposer
 * switched off there is no SQL yet: the refiner writes it directly first ({@code mmsql.refine.generate}).
 * {@code notes["mmsql.refine.outcome"]} = the classes met and the outcome, as for the correction stage.
 */
public final class RefineStage implements Stage {
    public static final String DIRECT_SOURCE = "mmsql.refine#1";
    public static final String NOTE = "mmsql.refine.outcome";

    private final AgentCall call;
    private final SchemaContext schemas;
    private final CandidateRunner runner;
    private final ExecutionCorrector corrector;
    private final PromptPair direct = PromptPair.load("mmsql/generate");

    public RefineStage(AgentCall call, SchemaContext schemas, CandidateRunner runner, ExecutionCorrector corrector) {
        this.call = call;
        this.schemas = schemas;
        this.runner = runner;
        this.corrector = corrector;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        PromptFields fields = MmsqlFields.of(ctx, schemas).with("values", "(none)");
        Candidate decomposed = ctx.candidates.stream().filter(c -> c.source.equals(DecomposeStage.SOURCE))
                .findFirst().orElse(null);
        CompletableFuture<Candidate> start = decomposed != null ? CompletableFuture.completedFuture(decomposed)
                : call.ask(direct.request(fields), ModelOutput::sql, trace).thenApply(sql -> {
                    Candidate c = new Candidate(DIRECT_SOURCE, sql);
                    ctx.candidates.add(c);
                    return c;
                });
        return start.thenCompose(c -> StageSql.offload(trace, () -> {
            if (!c.executed) {
                runner.run(ctx.dbId, ctx.tenant, c, trace.cancellation);
            }
            return corrector.correct(fields, MmsqlFields.rewritten(ctx), ctx.dbId, ctx.tenant, c, trace).thenAccept(outcome -> {
                if (outcome.best() != c) {
                    ExecutionCorrector.adopt(outcome.best(), c);
                }
                String classes = outcome.classes().stream().map(ErrorClass::slug).collect(Collectors.joining(">"));
                String note = (classes.isEmpty() ? "" : classes + ">")
                        + (outcome.classes().isEmpty() ? "ran fine" : outcome.fixed() ? "fixed" : "kept best");
                ctx.notes.put(NOTE, note);
                trace.note = (decomposed == null ? "written directly; " : "") + note;
            });
        }));
    }
}

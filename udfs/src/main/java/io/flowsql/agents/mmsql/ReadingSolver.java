package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Answers one reading of an ambiguous turn the way the authors' {@code solve_answerable} answers a question: the
 * decomposer writes the SQL ({@code mmsql/decompose}, its last step's query), it is executed, and when it shows a
 * problem the refiner repairs it (our refiner: {@link ExecutionCorrector}). A request that switched the decomposer off
 * gets the refiner's direct write ({@code mmsql/generate}) instead, and one that switched the refiner off keeps the
 * decomposer's SQL as it ran, so the ablation rows never ask a disabled agent.
 */
public final class ReadingSolver {
    /** What a reading's solution came to: its SQL (null when none could be written) and the error, if any. */
    public record Solved(String sql, String error) {}

    private final AgentCall call;
    private final SchemaContext schemas;
    private final CandidateRunner runner;
    private final ExecutionCorrector corrector;
    private final String decomposeStage;
    private final String refineStage;
    private final PromptPair decompose = PromptPair.load("mmsql/decompose");
    private final PromptPair direct = PromptPair.load("mmsql/generate");

    /** @param decomposeStage,refineStage the names of the stages whose agents this solver borrows (for the ablation) */
    public ReadingSolver(AgentCall call, SchemaContext schemas, CandidateRunner runner, ExecutionCorrector corrector,
                         String decomposeStage, String refineStage) {
        this.call = call;
        this.schemas = schemas;
        this.runner = runner;
        this.corrector = corrector;
        this.decomposeStage = decomposeStage;
        this.refineStage = refineStage;
    }

    public CompletableFuture<Solved> solve(RequestContext ctx, String reading, StageTrace trace) {
        String question = SchemaContext.oneLine(reading);
        PromptFields fields = MmsqlFields.of(ctx, schemas).asking(question).with("rewritten", question)
                .with("values", "(none)");
        boolean decomposer = !ctx.disabledStages.contains(decomposeStage);
        CompletableFuture<String> written = decomposer
                ? call.ask(decompose.request(fields), DecomposeStage::parse, trace).thenApply(ReadingSolver::lastSql)
                : call.ask(direct.request(fields), ModelOutput::sql, trace);
        return written.thenCompose(sql -> StageSql.offload(trace, () -> {
            Candidate c = runner.run(ctx.dbId, ctx.tenant, new Candidate("mmsql.reading", sql), trace.cancellation);
            if (ctx.disabledStages.contains(refineStage)) {
                return CompletableFuture.completedFuture(new Solved(c.sql, c.error));
            }
            return corrector.correct(fields, question, ctx.dbId, ctx.tenant, c, trace)
                    .thenApply(outcome -> new Solved(outcome.best().sql, outcome.best().error));
        }));
    }

    private static String lastSql(List<DecomposeStage.Step> steps) {
        return steps.get(steps.size() - 1).sql();
    }
}

package io.flowsql.flink;

import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageRegistry;
import io.flowsql.pipeline.CandidateRuns;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

import java.util.List;
import java.util.UUID;

/**
 * Splits a request into one record per distinct candidate SQL still to run plus one record carrying the request, so
 * candidates of one request run in parallel and the gather knows how many to wait for. The candidates
 * in the carried request are left as they are; the gather puts the executed ones back in place.
 */
public class CandidateFanOut extends RichFlatMapFunction<RequestContext, CandidateWork> {
    private final String stageName;
    private final String defaultPreset;

    private transient StageDeclaration declaration;
    private transient StageMetrics metrics;

    /** @param defaultPreset the preset of a request without its own */
    public CandidateFanOut(String stageName, String defaultPreset) {
        this.stageName = stageName;
        this.defaultPreset = defaultPreset;
    }

    @Override
    public void open(OpenContext openContext) {
        declaration = StageRegistry.get(stageName);
        metrics = new StageMetrics(getRuntimeContext().getMetricGroup(), stageName);
    }

    /** Whether the request's candidates are run here: its preset runs the stage, it is not switched off or settled. */
    private boolean runsFor(RequestContext ctx) {
        String preset = ctx.strategy == null ? defaultPreset : ctx.strategy;
        return declaration.belongsTo(preset) && !ctx.disabledStages.contains(stageName) && !ctx.isSettled();
    }

    @Override
    public void flatMap(RequestContext ctx, Collector<CandidateWork> out) {
        List<Integer> pending = List.of();
        int reused = 0;
        if (runsFor(ctx)) {
            // each distinct SQL runs once: the gather gives its result to the candidates with the same SQL
            CandidateRuns.Plan plan = CandidateRuns.plan(ctx.candidates);
            pending = plan.toRun();
            reused = plan.reused();
        } else {
            metrics.skipped();
        }
        if (pending.isEmpty() && reused > 0) { // the stage ran, with nothing left to execute: the gather passes it on
            StageTrace trace = new StageTrace(stageName);
            trace.note = "0 candidates, " + reused + " took the result of the same SQL run before";
            ctx.trace.add(trace);
        }
        String batch = UUID.randomUUID().toString();
        out.collect(CandidateWork.ofContext(ctx, pending.size(), batch));
        for (int index : pending) {
            out.collect(CandidateWork.ofCandidate(ctx, index, batch));
        }
    }
}

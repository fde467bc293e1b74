package io.flowsql.pipeline;

import java.util.List;
import java.util.Objects;

/**
 * Executes every candidate not yet executed, so the vote, the reviewer and the answer can compare real
 * results; the job places it (kind EXECUTE_CANDIDATES) on its candidate-execution side operator.
 */
public final class ExecuteCandidatesStage implements Stage.Local {
    private final CandidateRunner runner;

    public ExecuteCandidatesStage(CandidateRunner runner) {
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        List<Candidate> pending = ctx.candidates.stream().filter(c -> !c.executed).toList();
        CandidateRuns.Plan plan = CandidateRuns.plan(ctx.candidates);
        for (int index : plan.toRun()) {
            runner.run(ctx.dbId, ctx.tenant, ctx.candidates.get(index), trace.cancellation);
        }
        CandidateRuns.takeTwinResults(ctx.candidates, plan.toRun());
        long failed = pending.stream().filter(c -> c.error != null).count();
        trace.note = "executed " + plan.toRun().size() + ", failed " + failed;
    }
}

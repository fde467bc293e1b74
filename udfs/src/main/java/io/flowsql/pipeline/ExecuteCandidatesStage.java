package io.flowsql.pipeline;

import java.util.Objects;
import java.util.Optional;

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
        int executed = 0;
        int failed = 0;
        for (Candidate candidate : ctx.candidates) {
            if (!candidate.executed) {
                Optional<Candidate> same = Candidate.reusableWithSql(ctx.candidates, candidate.sql);
                if (same.isPresent()) {
                    candidate.takeResultOf(same.get()); // the same SQL runs once
                } else {
                    runner.run(ctx.dbId, candidate);
                    executed++;
                }
                if (candidate.error != null) {
                    failed++;
                }
            }
        }
        trace.note = "executed " + executed + ", failed " + failed;
    }
}

package io.flowsql.pipeline;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Executes every candidate not yet executed, so the vote, the reviewer and the answer can compare real
 * results; the job places it (kind EXECUTE_CANDIDATES) on its candidate-execution side operator.
 */
public final class ExecuteCandidatesStage implements Stage {
    private final String name;
    private final CandidateRunner runner;

    public ExecuteCandidatesStage(String name, CandidateRunner runner) {
        this.name = Objects.requireNonNull(name, "name");
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StageKind kind() {
        return StageKind.EXECUTE_CANDIDATES;
    }

    @Override
    public CompletableFuture<RequestContext> apply(RequestContext ctx) {
        return StageGuard.runLocal(name, ctx, trace -> {
            int executed = 0;
            int failed = 0;
            for (Candidate candidate : ctx.candidates) {
                if (!candidate.executed) {
                    runner.run(ctx.dbId, candidate);
                    executed++;
                    if (candidate.error != null) {
                        failed++;
                    }
                }
            }
            trace.note = "executed " + executed + ", failed " + failed;
        });
    }
}

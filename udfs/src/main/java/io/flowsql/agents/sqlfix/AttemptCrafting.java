package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SQLFixAgent's paraphrases crafted per refinement attempt (Cen et al., §3.2–3.3): before every attempt after the first,
 * the query crafter writes fresh paraphrases told why the earlier attempts failed, and their SQL is run, so each attempt
 * chooses among new alternatives rather than the first round's again. Candidates are named {@code sqlfix.craft@<attempt>#i}.
 */
public final class AttemptCrafting {
    private final QueryCrafter crafter;
    private final CandidateRunner runner;
    private final int k;

    public AttemptCrafting(QueryCrafter crafter, CandidateRunner runner, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("the crafter needs k >= 1 paraphrases, got " + k);
        }
        this.crafter = crafter;
        this.runner = runner;
        this.k = k;
    }

    /** The attempt's crafted candidates, executed (the statements run off the reply thread); none when crafting fails. */
    public CompletableFuture<List<Candidate>> craft(PromptFields frame, String tenant, String flaggedSql, List<String> reasons,
                                                    int attempt, StageTrace trace) {
        return crafter.craft(frame, flaggedSql, reasons, k, trace)
                .thenCompose(crafted -> StageSql.offload(trace, () -> CompletableFuture.completedFuture(
                        run(frame.dbId(), tenant, crafted, attempt, trace))))
                .exceptionally(error -> List.of());
    }

    private List<Candidate> run(String dbId, String tenant, List<CraftedQuery> crafted, int attempt, StageTrace trace) {
        List<Candidate> out = new ArrayList<>();
        for (int i = 0; i < crafted.size(); i++) {
            if (crafted.get(i).hasSql()) {
                Candidate c = new Candidate(QueryCrafterStage.SOURCE.replace("#", "@" + attempt + "#") + (i + 1),
                        crafted.get(i).sql());
                out.add(runner.run(dbId, tenant, c, trace.cancellation));
            }
        }
        return out;
    }
}

package io.flowsql.agents.opensearch.correct;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * OpenSearch-SQL's correction from execution results: the problem of an executed candidate is classified
 * ({@link ExecutionProblem}), the model is asked with that class's own prompt, the answer is executed and
 * classified again, for at most {@code rounds} rounds; stops early when the result looks fine or the model
 * repeats the query. The best attempt (lowest severity, the earliest on a tie) is the outcome.
 */
public final class ExecutionCorrector {
    /** The temperature of the authors' first correction round less its step (round r: 0.2 + r/5, at most 2). */
    static final double BASE_TEMPERATURE = 0.2;
    private final AgentCall call;
    private final CandidateRunner runner;
    private final int rounds;
    private final boolean resultChecks;
    private final Map<ErrorClass, PromptPair> prompts = new EnumMap<>(ErrorClass.class);

    /** A corrector that also sends back NULLs and odd result shapes (the project's earlier rule). */
    public ExecutionCorrector(AgentCall call, CandidateRunner runner, int rounds) {
        this(call, runner, rounds, true);
    }

    /** @param resultChecks false: errors and empty results only (OpenSearch-SQL's code); true: also NULLs and shape */
    public ExecutionCorrector(AgentCall call, CandidateRunner runner, int rounds, boolean resultChecks) {
        this.call = call;
        this.runner = runner;
        this.rounds = rounds;
        this.resultChecks = resultChecks;
        for (ErrorClass kind : ErrorClass.values()) {
            prompts.put(kind, PromptPair.load(kind.promptBase()));
        }
    }

    /**
     * The outcome: the best attempt (executed), the classes met in order, the rounds asked, whether it is fixed, and
     * whether a fresh generation was asked after the rounds.
     */
    public record Correction(Candidate best, List<ErrorClass> classes, int rounds, boolean fixed, boolean regenerated) {}

    /**
     * @param fields   the shared prompt fields plus {@code values}
     * @param question the question the shape check reads
     * @param start    an executed candidate (not changed)
     */
    public CompletableFuture<Correction> correct(PromptFields fields, String question, String dbId,
                                                 Candidate start, StageTrace trace) {
        return correct(fields, question, dbId, null, start, trace);
    }

    /** As above, for a question of {@code tenant}: each attempt's SQL is checked against the tenant's table list. */
    public CompletableFuture<Correction> correct(PromptFields fields, String question, String dbId, String tenant,
                                                 Candidate start, StageTrace trace) {
        return correct(fields, question, dbId, tenant, start, trace, null);
    }

    /**
     * As above, and when the best attempt still shows a problem after the rounds, {@code regenerate} (when not null)
     * asks for a fresh query, which is run and taken unless its result is worse (OpenSearch-SQL's code takes it
     * always); a regeneration that fails or cannot be read keeps the best attempt.
     */
    public CompletableFuture<Correction> correct(PromptFields fields, String question, String dbId, String tenant,
                                                 Candidate start, StageTrace trace,
                                                 Supplier<CompletableFuture<Optional<String>>> regenerate) {
        return round(fields, question, new Target(dbId, tenant, regenerate), start, start, new ArrayList<>(), 0, trace);
    }

    /** The database a correction runs on, the question's tenant, and the fresh generation after the rounds (or null). */
    private record Target(String dbId, String tenant, Supplier<CompletableFuture<Optional<String>>> regenerate) {}

    private CompletableFuture<Correction> round(PromptFields fields, String question, Target target, Candidate current,
                                                Candidate best, List<ErrorClass> seen, int done, StageTrace trace) {
        Optional<ExecutionProblem> problem = problem(current, question, target.dbId());
        Candidate better = severity(current, question, target.dbId()) < severity(best, question, target.dbId()) ? current : best;
        if (problem.isEmpty() || done >= rounds) {
            return finish(question, target, better, seen, done, trace);
        }
        ErrorClass kind = problem.get().kind();
        seen.add(kind);
        PromptFields vars = fields
                .with("sql", SchemaContext.oneLine(current.sql))
                .with("problem", problem.get().detail())
                .with("result", preview(current));
        // the authors' schedule: 0.2 + round/5 (top_p 0.3 as declared for opensearch.correct)
        ChatRequest request = prompts.get(kind).request(vars).withSampling(
                Math.min(2.0, BASE_TEMPERATURE + (done + 1) / 5.0), null);
        return call.ask(request, ModelOutput::sql, trace).handle((revised, failed) -> failed == null ? revised : "")
                .thenCompose(revised -> StageSql.offload(trace, () -> {
            // an unreadable correction (after AgentCall's one re-ask) ends the rounds like a repeated query
            if (revised.isEmpty() || normalize(revised).equals(normalize(current.sql))) {
                return finish(question, target, better, seen, done + 1, trace);
            }
            Candidate attempt = runner.run(target.dbId(), target.tenant(), new Candidate(current.source, revised),
                    trace == null ? null : trace.cancellation);
            return round(fields, question, target, attempt, better, seen, done + 1, trace);
        }));
    }

    /** The rounds are over: the best attempt, after a fresh generation when it still shows a problem and one is set. */
    private CompletableFuture<Correction> finish(String question, Target target, Candidate best, List<ErrorClass> seen,
                                                 int done, StageTrace trace) {
        if (target.regenerate() == null || problem(best, question, target.dbId()).isEmpty() || rounds == 0) {
            return CompletableFuture.completedFuture(new Correction(best, List.copyOf(seen), done,
                    problem(best, question, target.dbId()).isEmpty(), false));
        }
        return target.regenerate().get().handle((sql, failed) -> failed == null ? sql : Optional.<String>empty())
                .thenCompose(sql -> StageSql.offload(trace, () -> {
                    Candidate chosen = best;
                    if (sql.isPresent()) {
                        Candidate fresh = runner.run(target.dbId(), target.tenant(), new Candidate(best.source, sql.get()),
                                trace == null ? null : trace.cancellation);
                        chosen = severity(fresh, question, target.dbId()) <= severity(best, question, target.dbId()) ? fresh : best;
                    }
                    return CompletableFuture.completedFuture(new Correction(chosen, List.copyOf(seen), done,
                            problem(chosen, question, target.dbId()).isEmpty(), true));
                }));
    }

    /** Makes {@code to} the attempt {@code from}: its SQL and everything its execution recorded. */
    public static void adopt(Candidate from, Candidate to) {
        to.sql = from.sql;
        to.executed = from.executed;
        to.resultFingerprint = from.resultFingerprint;
        to.rowCount = from.rowCount;
        to.elapsedMicros = from.elapsedMicros;
        to.error = from.error;
        to.errorState = from.errorState;
        to.previewColumns = new ArrayList<>(from.previewColumns);
        to.setPreview(from.previewRows());
    }

    private int severity(Candidate c, String question, String dbId) {
        return problem(c, question, dbId).map(p -> p.kind().severity()).orElse(0);
    }

    /**
     * What this corrector sends back in a candidate executed on {@code dbId} (see {@link ExecutionProblem#of}); an
     * error is read in the wording of that database's engine.
     */
    public Optional<ExecutionProblem> problem(Candidate c, String question, String dbId) {
        return ExecutionProblem.of(c, question, resultChecks, runner.engineOf(dbId));
    }

    /** The columns and the first three rows as one line, or the error. */
    static String preview(Candidate c) {
        if (c.error != null) {
            return "(error)";
        }
        if (c.preview.isEmpty()) {
            return "(no rows)";
        }
        StringBuilder out = new StringBuilder(String.join(" | ", c.previewColumns));
        c.preview.stream().limit(3).forEach(row -> out.append(" ; ").append(String.join(" | ", row.cells)));
        return out.toString();
    }

    private static String normalize(String sql) {
        return SqlOneLine.of(sql);
    }
}

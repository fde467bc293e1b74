package io.flowsql.agents.opensearch.correct;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.agents.opensearch.FreshGeneration;
import io.flowsql.agents.opensearch.QuestionValues;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageModes;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@code opensearch.correct}: after the candidates ran and before the vote, every candidate whose execution
 * shows a problem is corrected by class ({@link ExecutionCorrector}); candidates with the same SQL are corrected
 * once. A candidate keeps its source and takes the best attempt's SQL and execution, so the vote counts it once.
 * Notes: {@code correct.<source>} = the classes met, arrow, outcome ("empty>fixed", "syntax>schema>kept").
 */
public final class OpenSearchCorrectStage implements Stage {
    public static final String NOTE_PREFIX = "correct.";
    /** Note: the mode the stage ran in. */
    public static final String MODE_NOTE = "correct.mode";

    /** Mode: the rounds, then a fresh generation for a candidate still failing (OpenSearch-SQL's code). */
    public static final String REGENERATE = "regenerate";
    /** Mode: the rounds only (the project's earlier behaviour, kept as an ablation). */
    public static final String ROUNDS = "rounds";

    private final ExecutionCorrector corrector;
    private final SchemaContext schemas;
    private final QuestionValues values;
    private final FreshGeneration regeneration;
    private final String defaultMode;

    /** Rounds only, no regeneration. */
    public OpenSearchCorrectStage(ExecutionCorrector corrector, SchemaContext schemas, QuestionValues values) {
        this(corrector, schemas, values, null, ROUNDS);
    }

    /**
     * @param regeneration the fresh generation after the rounds (null: none, whatever the mode)
     * @param defaultMode  {@value #REGENERATE} or {@value #ROUNDS}; a question may choose with {@code options.stage_modes}
     */
    public OpenSearchCorrectStage(ExecutionCorrector corrector, SchemaContext schemas, QuestionValues values,
                                  FreshGeneration regeneration, String defaultMode) {
        this.corrector = corrector;
        this.schemas = schemas;
        this.values = values;
        this.regeneration = regeneration;
        this.defaultMode = defaultMode;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        String mode = StageModes.of(ctx, trace, defaultMode);
        if (!REGENERATE.equals(mode) && !ROUNDS.equals(mode)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "unknown correction mode '" + mode + "'; modes: " + REGENERATE + ", " + ROUNDS));
        }
        ctx.notes.put(MODE_NOTE, mode);
        Supplier<CompletableFuture<Optional<String>>> regenerate =
                REGENERATE.equals(mode) && regeneration != null ? regeneration.forRequest(ctx, trace) : null;
        Map<String, List<Candidate>> bySql = new LinkedHashMap<>();
        for (Candidate c : ctx.candidates) {
            if (corrector.problem(c, ctx.question, ctx.dbId).isPresent()) {
                bySql.computeIfAbsent(SqlOneLine.of(c.sql), k -> new ArrayList<>()).add(c);
            }
        }
        if (bySql.isEmpty()) {
            trace.note = "nothing to correct";
            return CompletableFuture.completedFuture(null);
        }
        PromptFields fields = schemas.promptFields(ctx).with("values", values.text(ctx));
        List<CompletableFuture<Void>> work = new ArrayList<>();
        for (List<Candidate> same : bySql.values()) {
            Candidate first = same.get(0);
            work.add(corrector.correct(fields, ctx.question, ctx.dbId, ctx.tenant, first, trace, regenerate).thenAccept(outcome -> {
                String note = outcome.classes().stream().map(ErrorClass::slug).collect(Collectors.joining(">"))
                        + (outcome.regenerated() ? ">regenerated" : "") + ">" + (outcome.fixed() ? "fixed" : outcome.best() == first ? "kept" : "improved");
                for (Candidate c : same) {
                    if (outcome.best() != first) {
                        ExecutionCorrector.adopt(outcome.best(), c);
                    }
                    ctx.notes.put(NOTE_PREFIX + c.source, note);
                }
            }));
        }
        return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).thenRun(() -> {
            long fixed = ctx.notes.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(NOTE_PREFIX) && e.getValue().endsWith(">fixed")).count();
            trace.note = bySql.size() + " distinct SQL with a problem, " + fixed + " candidates fixed";
        });
    }
}

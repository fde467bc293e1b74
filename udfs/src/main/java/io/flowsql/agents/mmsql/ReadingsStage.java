package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.Interpretation;
import io.flowsql.pipeline.QuestionType;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ExecutionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The {@code mmsql.readings} stage: answers each reading of an ambiguous turn with SQL (in parallel) and checks it
 * runs; a reading whose SQL could not be written or run keeps the error. Runs on requests the detector settled as
 * "clarification", which other stages skip. As the authors' code, each reading goes through the decomposer and the
 * refiner ({@link ReadingSolver}) and the turn as the user wrote it is answered too, as the last reading
 * ({@code notes["mmsql.readings.original"]} = its index); {@link MmsqlRules} switches either back to our earlier way
 * (one generator call per reading; the readings only).
 */
public final class ReadingsStage implements Stage {
    public static final String NOTE_ORIGINAL = "mmsql.readings.original";

    private final ReadingSqlGenerator generator;
    private final ReadingSolver solver;
    private final StageSql database;
    private final Function<RequestContext, PromptFields> frames;
    private final MmsqlRules rules;

    public ReadingsStage(ReadingSqlGenerator generator, ReadingSolver solver, StageSql database,
                         Function<RequestContext, PromptFields> frames, MmsqlRules rules) {
        this.generator = generator;
        this.solver = solver;
        this.database = database;
        this.frames = frames;
        this.rules = rules;
    }

    @Override
    public boolean appliesTo(RequestContext ctx) {
        return QuestionType.AMBIGUOUS.wireName().equals(ctx.questionType)
                && ctx.hasStatus(AnswerStatus.CLARIFICATION)
                && ctx.interpretations.stream().anyMatch(i -> i.sql == null && i.error == null);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        MmsqlRules r = rules.forRequest(ctx);
        if (r.readingsOriginalQuestion() && !ctx.notes.containsKey(NOTE_ORIGINAL)) {
            ctx.notes.put(NOTE_ORIGINAL, String.valueOf(ctx.interpretations.size()));
            ctx.interpretations.add(new Interpretation(ctx.question, null));
        }
        PromptFields frame = frames.apply(ctx);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Interpretation reading : ctx.interpretations) {
            if (reading.sql == null && reading.error == null) {
                all.add(r.readingsDecomposeRefine() ? solved(ctx, reading, trace) : generated(ctx, frame, reading, trace));
            }
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenRun(() -> {
            long answered = ctx.interpretations.stream().filter(i -> i.sql != null && i.error == null).count();
            trace.note = answered + " of " + ctx.interpretations.size() + " readings answered"
                    + (r.readingsDecomposeRefine() ? " (decomposer and refiner)" : " (one call each)")
                    + (ctx.notes.containsKey(NOTE_ORIGINAL) ? ", the turn as written last" : "");
        });
    }

    private CompletableFuture<Void> solved(RequestContext ctx, Interpretation reading, StageTrace trace) {
        return solver.solve(ctx, reading.reading, trace).handle((solved, error) -> {
            if (error != null) {
                reading.error = String.valueOf(error.getMessage());
            } else {
                reading.sql = solved.sql();
                reading.error = solved.error();
            }
            return null;
        });
    }

    private CompletableFuture<Void> generated(RequestContext ctx, PromptFields frame, Interpretation reading, StageTrace trace) {
        return generator.sqlFor(frame, reading.reading, trace)
                .handle((sql, error) -> StageSql.offload(trace, () -> {
                    settle(ctx, reading, sql, error, trace);
                    return CompletableFuture.<Void>completedFuture(null);
                })).thenCompose(f -> f);
    }

    private void settle(RequestContext ctx, Interpretation reading, String sql, Throwable error, StageTrace trace) {
        if (error != null) {
            reading.error = String.valueOf(error.getMessage());
            return;
        }
        reading.sql = sql;
        ExecutionResult result = database.execute(StageSql.Scope.of(ctx, trace), sql);
        if (!result.ok()) {
            reading.error = result.error().toString();
        }
    }
}

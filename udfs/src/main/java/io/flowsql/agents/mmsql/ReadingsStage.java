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
import io.flowsql.sql.exec.SafeExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The {@code mmsql.readings} stage: answers each reading of an ambiguous turn with SQL (in parallel) and
 * checks it runs; a reading whose SQL could not be written or run keeps the error. Runs on requests the
 * detector settled as "clarification", which other stages skip.
 */
public final class ReadingsStage implements Stage {
    private final ReadingSqlGenerator generator;
    private final SafeExecutor executor;
    private final Function<RequestContext, PromptFields> frames;

    public ReadingsStage(ReadingSqlGenerator generator, SafeExecutor executor, Function<RequestContext, PromptFields> frames) {
        this.generator = generator;
        this.executor = executor;
        this.frames = frames;
    }

    @Override
    public boolean appliesTo(RequestContext ctx) {
        return QuestionType.AMBIGUOUS.wireName().equals(ctx.questionType)
                && ctx.hasStatus(AnswerStatus.CLARIFICATION)
                && ctx.interpretations.stream().anyMatch(i -> i.sql == null && i.error == null);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        PromptFields frame = frames.apply(ctx);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Interpretation reading : ctx.interpretations) {
            if (reading.sql == null && reading.error == null) {
                all.add(generator.sqlFor(frame, reading.reading, trace)
                        .handle((sql, error) -> StageSql.offload(trace, () -> {
                            settle(ctx.dbId, reading, sql, error, trace);
                            return CompletableFuture.<Void>completedFuture(null);
                        })).thenCompose(f -> f));
            }
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenRun(() -> {
            long answered = ctx.interpretations.stream().filter(i -> i.sql != null && i.error == null).count();
            trace.note = answered + " of " + ctx.interpretations.size() + " readings answered";
        });
    }

    private void settle(String dbId, Interpretation reading, String sql, Throwable error, StageTrace trace) {
        if (error != null) {
            reading.error = String.valueOf(error.getMessage());
            return;
        }
        reading.sql = sql;
        ExecutionResult result = StageSql.execute(executor, dbId, sql, trace);
        if (!result.ok()) {
            reading.error = result.error().toString();
        }
    }
}

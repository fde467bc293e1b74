package io.flowsql.agents.magsql;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * MAG-SQL's iterative generation: for each sub-question in turn, generate (first or next step) and refine
 * its sub-SQL; the final sub-SQL answers the question and becomes the candidate "magsql".
 */
public final class MagSqlGenerateStage implements Stage {
    public static final String SOURCE = "magsql";

    private final SubSqlGenerator generator;
    private final SubSqlRefiner refiner;
    private final SchemaContext schemas;

    public MagSqlGenerateStage(SubSqlGenerator generator, SubSqlRefiner refiner, SchemaContext schemas) {
        this.generator = generator;
        this.refiner = refiner;
        this.schemas = schemas;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        PromptFields fields = schemas.promptFields(ctx);
        List<String> subQuestions = ctx.subQuestions.isEmpty() ? List.of(ctx.question) : List.copyOf(ctx.subQuestions);
        int[] refinements = {0};
        CompletableFuture<SubSqlRefiner.Refined> chain = generator.first(fields, subQuestions.get(0), trace)
                .thenCompose(sql -> refiner.refine(fields, subQuestions.get(0), sql, trace));
        for (int i = 1; i < subQuestions.size(); i++) {
            String previousQuestion = subQuestions.get(i - 1);
            String subQuestion = subQuestions.get(i);
            chain = chain.thenCompose(previous -> {
                refinements[0] += previous.rounds();
                return generator.next(fields, previousQuestion, previous.sql(), subQuestion, trace)
                        .thenCompose(sql -> refiner.refine(fields, subQuestion, sql, trace));
            });
        }
        return chain.thenAccept(last -> {
            refinements[0] += last.rounds();
            ctx.candidates.add(new Candidate(SOURCE, last.sql()));
            trace.note = subQuestions.size() + " steps, " + refinements[0] + " refinements"
                    + last.remainingProblem().map(p -> ", still: " + p).orElse("");
        });
    }
}

package io.flowsql.agents.magsql;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * MAG-SQL's iterative generation: for each sub-question in turn, generate (first or next step) and refine
 * its sub-SQL; an accepted sub-SQL is post-processed ({@link SubSqlPostprocess}) before the next step extends it; the
 * final sub-SQL answers the question and becomes the candidate "magsql". After a "no such column" fallback the later
 * steps see the full schema, as in the authors' code.
 */
public final class MagSqlGenerateStage implements Stage {
    public static final String SOURCE = "magsql";
    /** Note: how many sub-SQLs post-processing changed, and whether the schema fell back to the full one. */
    public static final String NOTE_POSTPROCESSED = "magsql.postprocessed";
    public static final String NOTE_FELL_BACK = "magsql.schema-fallback";

    private final SubSqlGenerator generator;
    private final SubSqlRefiner refiner;
    private final SchemaContext schemas;
    private final MagSqlRules rules;

    public MagSqlGenerateStage(SubSqlGenerator generator, SubSqlRefiner refiner, SchemaContext schemas, MagSqlRules rules) {
        this.generator = generator;
        this.refiner = refiner;
        this.schemas = schemas;
        this.rules = rules;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        // the paper's value retrieval reaches both generators (its ablation: +1.7 EX), as the refiner already saw it
        String values = ValueText.forPrompt(ctx.matchedValues);
        PromptFields fields = schemas.promptFields(ctx).with("values", values);
        SubSqlRefiner.Frame start = new SubSqlRefiner.Frame(fields, schemas.views().full(schemas.schema(ctx)),
                values, rules.forRequest(ctx), ctx.tenant);
        List<String> subQuestions = ctx.subQuestions.isEmpty() ? List.of(ctx.question) : List.copyOf(ctx.subQuestions);
        int[] counts = {0, 0};
        CompletableFuture<SubSqlRefiner.Refined> chain = generator.first(fields, subQuestions.get(0), trace)
                .thenCompose(sql -> refiner.refine(start, subQuestions.get(0), sql, trace));
        for (int i = 1; i < subQuestions.size(); i++) {
            String previousQuestion = subQuestions.get(i - 1);
            String subQuestion = subQuestions.get(i);
            chain = chain.thenCompose(previous -> {
                String accepted = finish(previous, counts);
                SubSqlRefiner.Frame frame = previous.frame();
                return generator.next(frame.fields(), previousQuestion, accepted, subQuestion, trace)
                        .thenCompose(sql -> refiner.refine(frame, subQuestion, sql, trace));
            });
        }
        return chain.thenAccept(last -> {
            String sql = finish(last, counts);
            ctx.candidates.add(new Candidate(SOURCE, sql));
            ctx.notes.put(NOTE_POSTPROCESSED, String.valueOf(counts[1]));
            ctx.notes.put(NOTE_FELL_BACK, String.valueOf(last.fellBack()));
            trace.note = subQuestions.size() + " steps, " + counts[0] + " refinements"
                    + (counts[1] > 0 ? ", " + counts[1] + " post-processed" : "")
                    + (last.fellBack() ? ", full schema after 'no such column'" : "")
                    + last.remainingProblem().map(p -> ", still: " + p).orElse("");
        });
    }

    /** Counts a refined sub-SQL's rounds and post-processes it when the request's rules say so. */
    private static String finish(SubSqlRefiner.Refined refined, int[] counts) {
        counts[0] += refined.rounds();
        if (!refined.frame().rules().postprocess()) {
            return refined.sql();
        }
        String done = SubSqlPostprocess.apply(refined.sql());
        if (!done.equals(refined.sql())) {
            counts[1]++;
        }
        return done;
    }
}

package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.opensearch.extract.Extraction;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.util.concurrent.CompletableFuture;

/** Asks the progressive generator for n samples and adds each readable one as candidate "opensearch#i". */
public final class OpenSearchGenerateStage implements Stage {
    public static final String SOURCE_PREFIX = "opensearch#";
    /** Note prefixes (followed by the candidate's source) of the #columns and #values a sample declared. */
    public static final String DECLARED_COLUMNS = "extract.columns.";
    public static final String DECLARED_VALUES = "extract.values.";

    private final ProgressiveGenerator generator;
    private final SchemaContext schemas;
    private final QuestionValues values;
    private final ExampleLibrary library;

    public OpenSearchGenerateStage(ProgressiveGenerator generator, SchemaContext schemas, CachingValueIndexProvider values,
                                   int valueMatches) {
        this(generator, schemas, values, valueMatches, null);
    }

    /** @param library the few-shot library {@code opensearch.fewshot} retrieved from (null: none) */
    public OpenSearchGenerateStage(ProgressiveGenerator generator, SchemaContext schemas, CachingValueIndexProvider values,
                                   int valueMatches, ExampleLibrary library) {
        this.library = library;
        this.generator = generator;
        this.schemas = schemas;
        this.values = new QuestionValues(values, valueMatches, schemas::schema);
    }

    /** The generator's prompt fields for {@code ctx}: the shared ones, the values, the few-shot examples, the extraction. */
    static PromptFields promptFields(RequestContext ctx, SchemaContext schemas, QuestionValues values, ExampleLibrary library) {
        return schemas.promptFields(ctx)
                .with("values", values.text(ctx))
                .with("examples", FewShotStage.promptText(ctx, library))
                .with("extraction", Extraction.promptText(ctx));
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return generator.generate(promptFields(ctx, schemas, values, library), trace).thenAccept(answers -> {
            for (int i = 0; i < answers.size(); i++) {
                ProgressiveAnswer answer = answers.get(i);
                ctx.candidates.add(new Candidate(SOURCE_PREFIX + i, answer.sql()));
                // what the sample said it would use, for the adherence check
                ctx.notes.put(DECLARED_COLUMNS + SOURCE_PREFIX + i, answer.columns());
                ctx.notes.put(DECLARED_VALUES + SOURCE_PREFIX + i, answer.values());
            }
            trace.note = answers.size() + " candidates";
        });
    }
}

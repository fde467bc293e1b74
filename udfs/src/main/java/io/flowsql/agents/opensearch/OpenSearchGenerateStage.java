package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.opensearch.extract.Extraction;
import io.flowsql.agents.opensearch.extract.ExtractionStage;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /**
     * @param schemas the schemas and, through each request's door, the few-shot library {@code opensearch.fewshot}
     *                retrieved from (the room holds none: no examples)
     */
    public OpenSearchGenerateStage(ProgressiveGenerator generator, SchemaContext schemas, int valueMatches) {
        this.generator = generator;
        this.schemas = schemas;
        this.values = new QuestionValues(schemas, valueMatches);
    }

    /**
     * The generator's prompt fields for {@code ctx}: the shared ones, the values, the few-shot examples, the extraction;
     * after {@code opensearch.extract}, the schema shows the extracted and retrieved columns (plus the keys that join
     * their tables) as the authors' generation does; without it (sqlfix, or the stage switched off) the whole schema.
     */
    static PromptFields promptFields(RequestContext ctx, SchemaContext schemas, QuestionValues values) {
        PromptFields shared = schemas.promptFields(ctx);
        String selected = selectedSchema(ctx, schemas);
        return (selected == null ? shared : shared.with("schema", selected))
                .with("values", values.text(ctx))
                .with("examples", FewShotStage.promptText(ctx, schemas.doors()))
                .with("extraction", Extraction.promptText(ctx));
    }

    /** The schema cut to the extraction's columns, or null when there is no extraction or none of its columns is known. */
    static String selectedSchema(RequestContext ctx, SchemaContext schemas) {
        if (ctx.schemaText != null && !ctx.schemaText.isBlank()) {
            return null;
        }
        Optional<Extraction> extraction = Extraction.of(ctx);
        if (extraction.isEmpty()) {
            return null;
        }
        DatabaseSchema schema = schemas.schema(ctx);
        List<ColumnRef> columns = new ArrayList<>();
        for (String name : extraction.get().allColumns()) {
            ExtractionStage.known(schema, name).ifPresent(known -> {
                int dot = known.lastIndexOf('.');
                columns.add(new ColumnRef(known.substring(0, dot), known.substring(dot + 1)));
            });
        }
        return columns.isEmpty() ? null : schemas.views().pruned(schema, columns);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return generator.generate(promptFields(ctx, schemas, values), trace).thenAccept(answers -> {
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

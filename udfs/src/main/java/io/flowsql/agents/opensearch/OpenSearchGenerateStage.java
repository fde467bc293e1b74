package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.StageGuard;
import io.flowsql.agents.common.StageNames;
import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.sql.ValueIndexProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Asks the progressive generator for n samples and adds each readable one as candidate "opensearch#i". */
public final class OpenSearchGenerateStage implements Stage {
    public static final String SOURCE_PREFIX = "opensearch#";

    private final ProgressiveGenerator generator;
    private final SchemaContext schemas;
    private final ValueIndexProvider values;
    private final int valueMatches;

    public OpenSearchGenerateStage(ProgressiveGenerator generator, SchemaContext schemas, ValueIndexProvider values,
                                   int valueMatches) {
        this.generator = generator;
        this.schemas = schemas;
        this.values = values;
        this.valueMatches = valueMatches;
    }

    @Override
    public String name() {
        return StageNames.OPENSEARCH_GENERATE;
    }

    @Override
    public CompletableFuture<RequestContext> apply(RequestContext ctx) {
        return StageGuard.run(name(), ctx, trace -> {
            Map<String, Object> fields = schemas.promptFields(ctx);
            fields.put("values", valuesText(ctx));
            return generator.generate(fields, trace).thenAccept(answers -> {
                for (int i = 0; i < answers.size(); i++) {
                    ctx.candidates.add(new Candidate(SOURCE_PREFIX + i, answers.get(i).sql()));
                }
                trace.note = answers.size() + " candidates";
            });
        });
    }

    /** The values linking already found, else those the value index finds in the question. */
    private String valuesText(RequestContext ctx) {
        List<String> found = ctx.matchedValues.isEmpty()
                ? ValueText.of(values.forDatabase(ctx.dbId)
                        .find(ctx.question + " " + (ctx.evidence == null ? "" : ctx.evidence), valueMatches))
                : ctx.matchedValues;
        return ValueText.forPrompt(found);
    }
}

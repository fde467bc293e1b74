package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * OpenSearch-SQL's last resort in correction: a candidate still failing after the correction rounds is generated
 * afresh with the generator's own prompt (the authors' code: {@code get_sql(new_prompt, 0.2)} once the rounds are
 * spent), one sample at temperature 0.2, answered in the generator's progressive format.
 */
public final class FreshGeneration {
    /** The authors' temperature for the regeneration. */
    public static final double TEMPERATURE = 0.2;

    private final ProgressiveGenerator generator;
    private final SchemaContext schemas;
    private final QuestionValues values;

    /** @param schemas the schemas and, through each request's door, the few-shot library the prompt shows examples from */
    public FreshGeneration(AgentCall call, SchemaContext schemas, int valueMatches) {
        this.generator = new ProgressiveGenerator(call, 1, TEMPERATURE);
        this.schemas = schemas;
        this.values = new QuestionValues(schemas, valueMatches);
    }

    /** The regeneration for {@code ctx}'s question, asked (and metered into {@code trace}) only when called. */
    public Supplier<CompletableFuture<Optional<String>>> forRequest(RequestContext ctx, StageTrace trace) {
        return () -> generator.generate(OpenSearchGenerateStage.promptFields(ctx, schemas, values), trace)
                .thenApply(answers -> answers.stream().findFirst().map(ProgressiveAnswer::sql));
    }
}

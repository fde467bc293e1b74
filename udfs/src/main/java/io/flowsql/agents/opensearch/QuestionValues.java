package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.util.List;
import java.util.function.Function;

/** The database values OpenSearch-SQL's prompts show: those linking already found, else the value index's hits for the question. */
public final class QuestionValues {
    private final CachingValueIndexProvider values;
    private final int matches;
    /** The schema the request's prompts show: values of other tables are not shown (null: no filter). */
    private final Function<RequestContext, DatabaseSchema> shown;

    public QuestionValues(CachingValueIndexProvider values, int matches) {
        this(values, matches, null);
    }

    public QuestionValues(CachingValueIndexProvider values, int matches, Function<RequestContext, DatabaseSchema> shown) {
        this.values = values;
        this.matches = matches;
        this.shown = shown;
    }

    public String text(RequestContext ctx) {
        List<String> found = ctx.matchedValues.isEmpty()
                ? ValueText.of(inShownSchema(ctx, values.forDatabase(ctx.dbId)
                        .find(ctx.question + " " + (ctx.evidence == null ? "" : ctx.evidence), matches)))
                : ctx.matchedValues;
        return ValueText.forPrompt(found);
    }

    private List<ValueMatch> inShownSchema(RequestContext ctx, List<ValueMatch> found) {
        if (shown == null) {
            return found;
        }
        DatabaseSchema schema = shown.apply(ctx);
        return found.stream().filter(v -> schema.table(v.table()).isPresent()).toList();
    }
}

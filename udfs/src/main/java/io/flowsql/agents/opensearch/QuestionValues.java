package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.util.List;

/** The database values OpenSearch-SQL's prompts show: those linking already found, else the value index's hits for the question. */
public final class QuestionValues {
    private final CachingValueIndexProvider values;
    private final int matches;

    public QuestionValues(CachingValueIndexProvider values, int matches) {
        this.values = values;
        this.matches = matches;
    }

    public String text(RequestContext ctx) {
        List<String> found = ctx.matchedValues.isEmpty()
                ? ValueText.of(values.forDatabase(ctx.dbId)
                        .find(ctx.question + " " + (ctx.evidence == null ? "" : ctx.evidence), matches))
                : ctx.matchedValues;
        return ValueText.forPrompt(found);
    }
}

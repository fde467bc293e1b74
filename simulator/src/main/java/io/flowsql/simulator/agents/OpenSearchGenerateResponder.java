package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Simulates OpenSearch-SQL's progressive generator: n samples, each the gold SQL through the error
 * injector (so samples disagree as real ones do) or a plausible query, written in the #reason ... #SQL format.
 */
public final class OpenSearchGenerateResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String db = request.field("Database").orElse("");
        String question = request.field("Question").orElse("");
        String schema = PromptText.schema(request.lastUserMessage());
        Optional<String> gold = context.oracle().flatMap(o -> o.goldSql(db, question));
        List<String> choices = new ArrayList<>();
        for (int i = 0; i < Math.max(1, request.n()); i++) {
            String sql = gold.map(g -> context.errorInjector().inject(g, schema).sql())
                    .orElseGet(() -> PromptText.plausibleSql(question, schema));
            choices.add(progressive(sql));
        }
        return Optional.of(choices);
    }

    /** A query written as the progressive generator answers: #reason ... #SQL with the query in a fence. */
    public static String progressive(String sql) {
        String select = sql.replaceAll("(?is)\\s+FROM\\s.*", "");
        return "#reason: map the question onto the tables it names.\n#columns: see the query\n#values: none\n"
                + "#SELECT: " + select.replaceAll("\\s+", " ") + "\n#SQL-like: " + sql.replaceAll("\\s+", " ")
                + "\n#SQL:\n```sql\n" + sql + "\n```";
    }
}

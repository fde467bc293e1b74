package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Simulates a generator that answers a rewritten question (a SQLFixAgent paraphrase, an MMSQL reading):
 * the gold SQL of the original question through the error injector when the oracle knows it, else a
 * plausible query on the schema; "#reason:" then a ```sql fence, as the prompts ask.
 */
public final class OriginalQuestionSqlResponder implements Responder {
    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String db = request.field("Database").orElse("");
        String original = request.field("Original question").orElse(request.field("Question").orElse(""));
        String schema = PromptText.schema(request.lastUserMessage());
        Optional<String> gold = context.oracle().flatMap(o -> o.goldSql(db, original));
        List<String> choices = new ArrayList<>();
        for (int i = 0; i < Math.max(1, request.n()); i++) {
            String sql = gold.map(g -> context.errorInjector().inject(g, schema).sql())
                    .orElseGet(() -> PromptText.plausibleSql(request.field("Question").orElse(original), schema));
            choices.add("#reason: answer the question with the tables it names.\n```sql\n" + sql + "\n```");
        }
        return Optional.of(choices);
    }
}

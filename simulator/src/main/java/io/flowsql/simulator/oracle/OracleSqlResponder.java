package io.flowsql.simulator.oracle;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Answers a SQL-generation prompt with the benchmark's gold SQL after error injection, one draw per
 * choice, so voting sees disagreeing candidates; agent responders reuse {@link #sqlChoices}.
 */
public final class OracleSqlResponder implements Responder {

    /** Gold SQL (possibly corrupted) for the request's Database and Question fields, n times. */
    public static Optional<List<String>> sqlChoices(SimulatedRequest request, SimulationContext context) {
        Optional<String> database = request.field("Database");
        Optional<String> question = request.field("Question");
        if (context.oracle().isEmpty() || database.isEmpty() || question.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> gold = context.oracle().get().goldSql(database.get(), question.get());
        if (gold.isEmpty()) {
            return Optional.empty();
        }
        List<String> choices = new ArrayList<>();
        for (int i = 0; i < Math.max(1, request.n()); i++) {
            choices.add(context.errorInjector().inject(gold.get(), request.lastUserMessage()).sql());
        }
        return Optional.of(choices);
    }

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        return sqlChoices(request, context).map(list -> list.stream().map(sql -> "```sql\n" + sql + "\n```").toList());
    }
}

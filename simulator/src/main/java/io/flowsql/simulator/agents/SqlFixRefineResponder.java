package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Simulates SQLFixAgent's refiner: chooses the candidate equal to the gold SQL when there is one, else
 * repairs with the gold SQL through the error injector (so a repair can fail and be retried); without the
 * oracle it chooses the first candidate that ran. Answers with #choice, #wrong and a ```sql fence.
 */
public final class SqlFixRefineResponder implements Responder {
    private static final Pattern CANDIDATE = Pattern.compile("(?m)^- (sqlfix\\.craft#\\d+): (.*) -> (.*)$");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String message = request.lastUserMessage();
        Optional<String> gold = context.oracle().flatMap(o -> o.goldSql(
                request.field("Database").orElse(""), request.field("Question").orElse("")));
        String candidatesSection = section(message, "Candidates:", "Failed attempts of this request:");
        Matcher m = CANDIDATE.matcher(candidatesSection);
        String firstWorking = null;
        String firstWorkingId = null;
        while (m.find()) {
            String id = m.group(1);
            String sql = m.group(2);
            boolean ran = !m.group(3).startsWith("error") && !m.group(3).startsWith("not executed");
            if (gold.isPresent() && PromptText.canonical(sql).equals(PromptText.canonical(gold.get()))) {
                return answer(id, sql);
            }
            if (ran && firstWorking == null) {
                firstWorking = sql;
                firstWorkingId = id;
            }
        }
        if (gold.isPresent()) {
            return answer("repair", context.errorInjector().inject(gold.get(), PromptText.schema(message)).sql());
        }
        if (firstWorking != null) {
            return answer(firstWorkingId, firstWorking);
        }
        return PromptText.firstSql(message).flatMap(sql -> answer("repair", sql));
    }

    private static Optional<List<String>> answer(String choice, String sql) {
        return Optional.of(List.of("#choice: " + choice
                + "\n#wrong: the flagged SQL did not match the question's columns, tables or conditions\n```sql\n"
                + sql + "\n```"));
    }

    private static String section(String text, String start, String end) {
        int from = text.indexOf(start);
        if (from < 0) {
            return "";
        }
        int to = text.indexOf(end, from);
        return to < 0 ? text.substring(from) : text.substring(from, to);
    }
}

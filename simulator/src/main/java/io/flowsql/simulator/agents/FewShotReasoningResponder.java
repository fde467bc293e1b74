package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Simulates the model that writes a few-shot example's reasoning ({@code eval.fewshot.reasoning}): reads the given SQL's
 * clauses by pattern and states them in the reasoning format (#reason, #columns, #values, #SELECT, #SQL-like). No
 * thought goes into it: the client marks such a reply as simulated, and the library keeps that mark.
 */
public final class FewShotReasoningResponder implements Responder {
    private static final Pattern CLAUSES = Pattern.compile(
            "(?is)^\\s*SELECT\\s+(.*?)\\s+FROM\\s+(.*?)(?:\\s+WHERE\\s+(.*?))?(?:\\s+GROUP BY\\s+(.*?))?(?:\\s+HAVING\\s+.*?)?"
                    + "(?:\\s+ORDER BY\\s+(.*?))?(?:\\s+LIMIT\\s+\\d+.*?)?\\s*;?\\s*$");
    private static final Pattern CONDITION = Pattern.compile(
            "(?i)((?:\\w+\\.)?\\w+)\\s*(=|!=|<>|>=|<=|>|<|\\bLIKE\\b|\\bIN\\b)\\s*('(?:''|[^'])*'|\"[^\"]*\"|-?\\d+(?:\\.\\d+)?)");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String sql = request.field("SQL").orElse("").strip();
        Matcher clauses = CLAUSES.matcher(sql.replaceAll("\\s+", " "));
        if (!clauses.matches()) {
            return Optional.of(List.of("#reason: The question is answered by the query as a whole.\n#columns: \n#values: \n"
                    + "#SELECT: " + sql + "\n#SQL-like: " + sql));
        }
        String select = clauses.group(1).strip();
        String where = clauses.group(3);
        List<String> conditions = new ArrayList<>();
        List<String> columns = new ArrayList<>(List.of(select));
        if (where != null) {
            Matcher c = CONDITION.matcher(where);
            while (c.find()) {
                conditions.add(c.group(1) + " " + c.group(2).toUpperCase() + " " + c.group(3));
                columns.add(c.group(1));
            }
        }
        StringBuilder like = new StringBuilder("Show ").append(select);
        if (where != null) {
            like.append(" where ").append(where.strip());
        }
        if (clauses.group(4) != null) {
            like.append(", group by ").append(clauses.group(4).strip());
        }
        if (clauses.group(5) != null) {
            like.append(", order by ").append(clauses.group(5).strip());
        }
        String reason = "The question asks to show " + select + " from " + clauses.group(2).strip() + "; "
                + (conditions.isEmpty() ? "there is no filtering condition." : String.join(", ", conditions)
                + " are filtering conditions.");
        return Optional.of(List.of("#reason: " + reason + "\n#columns: " + String.join(", ", columns)
                + "\n#values: " + String.join(", ", conditions) + "\n#SELECT: " + select + "\n#SQL-like: " + like));
    }
}

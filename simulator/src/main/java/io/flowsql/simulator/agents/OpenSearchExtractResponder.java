package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Simulates OpenSearch-SQL's extraction call ({@code opensearch.extract}): the prompt schema's columns the gold SQL (or,
 * unknown, the question) names, the gold SQL's quoted literals as values, and both as entities, as a ```json object.
 */
public final class OpenSearchExtractResponder implements Responder {
    private static final Pattern LITERAL = Pattern.compile("'((?:[^']|'')*)'|\"([^\"]*)\"");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Map<String, String> columns = MagSqlLinkResponder.columns(PromptText.schema(request.lastUserMessage()));
        String question = request.field("Question").orElse("");
        String basis = context.oracle().flatMap(o -> o.goldSql(request.field("Database").orElse(""), question))
                .orElse(question);
        String lower = basis.toLowerCase(Locale.ROOT);
        List<String> named = columns.keySet().stream()
                .filter(c -> Pattern.compile("\\b" + Pattern.quote(columns.get(c).toLowerCase(Locale.ROOT)) + "\\b")
                        .matcher(lower).find())
                .limit(12).toList();
        Set<String> values = new LinkedHashSet<>();
        Matcher m = LITERAL.matcher(basis);
        while (m.find() && values.size() < 8) {
            values.add(m.group(1) != null ? m.group(1).replace("''", "'") : m.group(2));
        }
        List<String> entities = new ArrayList<>(named.stream().map(columns::get).distinct().toList());
        entities.addAll(values);
        return Optional.of(List.of("```json\n{\"reason\": \"simulated: what the gold query touches\", \"entities\": "
                + json(entities) + ", \"columns\": " + json(named) + ", \"values\": " + json(values) + "}\n```"));
    }

    static String json(java.util.Collection<String> items) {
        return items.stream().map(PromptText::quote).collect(Collectors.joining(", ", "[", "]"));
    }
}

package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Simulates MAG-SQL's entity-based schema linker: the columns the gold SQL (or, unknown, the question)
 * mentions become entities, each with three ranked columns of the prompt's schema, as a ```json object.
 */
public final class MagSqlLinkResponder implements Responder {
    /** A table in full: {@code # Table: t}, or schema-qualified in a warehouse, {@code # Table: ns.t}. */
    private static final Pattern TABLE = Pattern.compile("(?m)^#\\s*Table:\\s*([A-Za-z0-9_.]+)");
    /** A table a retrieval shows in brief: {@code # Table: t [a, b (primary key), c]}. */
    private static final Pattern BRIEF_TABLE = Pattern.compile("^#\\s*Table:\\s*([A-Za-z0-9_.]+)\\s*\\[(.*)]\\s*$");
    private static final Pattern COLUMN = Pattern.compile("(?m)^\\s*\\(([^,()]+),");
    private static final int PER_ENTITY = 3;

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Map<String, String> columns = columns(PromptText.schema(request.lastUserMessage()));
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        String question = request.field("Question").orElse("");
        String basis = context.oracle().flatMap(o -> o.goldSql(request.field("Database").orElse(""), question))
                .orElse(question).toLowerCase(Locale.ROOT);
        List<String> all = new ArrayList<>(columns.keySet());
        List<String> mentioned = all.stream()
                .filter(c -> Pattern.compile("\\b" + Pattern.quote(columns.get(c).toLowerCase(Locale.ROOT)) + "\\b")
                        .matcher(basis).find())
                .limit(6).toList();
        List<String> entities = new ArrayList<>();
        for (String column : mentioned.isEmpty() ? all.subList(0, 1) : mentioned) {
            List<String> ranked = new ArrayList<>(List.of(column));
            all.stream().filter(c -> !ranked.contains(c)).limit(PER_ENTITY - 1).forEach(ranked::add);
            entities.add("{\"entity\": " + PromptText.quote(columns.get(column)) + ", \"columns\": "
                    + ranked.stream().map(PromptText::quote).collect(Collectors.joining(", ", "[", "]")) + "}");
        }
        return Optional.of(List.of("```json\n{\"entities\": [" + String.join(",\n  ", entities) + "]}\n```"));
    }

    /**
     * "table.column" to column name, from the renderer's "# Table: t" blocks of "(column, TYPE, ...)" lines and its
     * one-line brief tables.
     */
    static Map<String, String> columns(String schema) {
        Map<String, String> out = new LinkedHashMap<>();
        String table = null;
        for (String line : schema.split("\\R")) {
            Matcher brief = BRIEF_TABLE.matcher(line);
            if (brief.find()) {
                table = null;
                for (String column : brief.group(2).split(",")) {
                    String name = column.replace("(primary key)", "").strip();
                    if (!name.isEmpty()) {
                        out.put(brief.group(1) + "." + name, name);
                    }
                }
                continue;
            }
            Matcher t = TABLE.matcher(line);
            if (t.find()) {
                table = t.group(1);
                continue;
            }
            Matcher c = COLUMN.matcher(line);
            if (table != null && c.find()) {
                String name = c.group(1).strip();
                out.put(table + "." + name, name);
            }
        }
        return out;
    }
}

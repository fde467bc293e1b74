package io.flowsql.agents.opensearch.extract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.pipeline.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What OpenSearch-SQL's extraction step found for a question, kept in the request's notes (so it crosses operators
 * and checkpoints like every other field): the model's entities, columns (only those the schema has) and values,
 * the SELECT order it asked for, and what embedding retrieval added (columns, and values found in the database as
 * {@code table.column = 'value'} lines).
 */
public record Extraction(List<String> entities, List<String> columns, List<String> values, List<String> select,
                         List<String> retrievedColumns, List<String> retrievedValues) {
    public static final String ENTITIES = "extract.entities";
    public static final String COLUMNS = "extract.columns";
    public static final String VALUES = "extract.values";
    public static final String SELECT = "extract.select";
    public static final String RETRIEVED_COLUMNS = "retrieve.columns";
    public static final String RETRIEVED_VALUES = "retrieve.values";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The extraction of a request, when {@code opensearch.extract} ran for it. */
    public static Optional<Extraction> of(RequestContext ctx) {
        if (!ctx.notes.containsKey(COLUMNS)) {
            return Optional.empty();
        }
        return Optional.of(new Extraction(list(ctx, ENTITIES), list(ctx, COLUMNS), list(ctx, VALUES), list(ctx, SELECT),
                list(ctx, RETRIEVED_COLUMNS), list(ctx, RETRIEVED_VALUES)));
    }

    /** The extracted columns and the retrieved ones, without repeats, extracted first. */
    public List<String> allColumns() {
        List<String> out = new ArrayList<>(columns);
        retrievedColumns.stream().filter(c -> out.stream().noneMatch(c::equalsIgnoreCase)).forEach(out::add);
        return out;
    }

    static void put(RequestContext ctx, String key, List<String> items) {
        try {
            ctx.notes.put(key, JSON.writeValueAsString(items));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> list(RequestContext ctx, String key) {
        String text = ctx.notes.get(key);
        if (text == null || text.isBlank()) {
            return List.of();
        }
        try {
            return JSON.readValue(text, new TypeReference<List<String>>() {});
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }

    /** The strings of a JSON array field ({@code []} when missing); blank items dropped. */
    static List<String> strings(JsonNode node, String field) {
        List<String> out = new ArrayList<>();
        node.path(field).forEach(item -> {
            String text = item.asText().strip();
            if (!text.isEmpty()) {
                out.add(text);
            }
        });
        return out;
    }

    /**
     * The block the generator's prompt shows: the columns and values the query needs and the order of the answer's
     * columns; {@code (none: the extraction step did not run)} without an extraction.
     */
    public static String promptText(RequestContext ctx) {
        Optional<Extraction> found = of(ctx);
        if (found.isEmpty()) {
            return "(none: the extraction step did not run)";
        }
        Extraction e = found.get();
        List<String> lines = new ArrayList<>();
        lines.add("Columns the query needs: " + (e.allColumns().isEmpty() ? "(none found)" : String.join(", ", e.allColumns())));
        lines.add("Values in the database: " + (e.retrievedValues().isEmpty()
                ? (e.values().isEmpty() ? "(none)" : "none matched; the question says " + String.join(", ", e.values()))
                : String.join(", ", e.retrievedValues())));
        if (!e.select().isEmpty()) {
            lines.add("The answer's columns, in this order: " + String.join("; ", e.select()));
        }
        return String.join("\n", lines);
    }
}

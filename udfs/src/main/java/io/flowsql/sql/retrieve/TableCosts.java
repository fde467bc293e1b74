package io.flowsql.sql.retrieve;

import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each piece of a schema's full rendering costs in tokens, measured once per schema object (with each table's
 * namespace and foreign-key neighbours, which the ranking reads on every question): every table alone in
 * full and in brief, every foreign-key line, the foreign keys' heading, and the whole rendering. A retrieval adds these
 * up instead of rendering the tables it keeps again and again, so its cost grows with the tables it keeps, not with
 * the tables it drops. The sum of the parts is the rendering's length up to the tokenizer's merges across a part's
 * boundary (each part ends with a newline, so it is within a few tokens; {@link BudgetCut} checks the result).
 */
final class TableCosts {
    final int whole;
    /** Each table's schema namespace, lower case ("" for an unqualified name). */
    final String[] namespace;
    final int[] full;
    final int[] brief;
    final int header;
    /** For each table, the foreign keys that join it to another table: the other table's index and the line's tokens. */
    final int[][] neighbour;
    final int[][] lineTokens;

    TableCosts(DatabaseSchema schema, SchemaRenderer renderer, TokenCounter tokens) {
        int n = schema.tables().size();
        full = new int[n];
        namespace = new String[n];
        brief = new int[n];
        for (int i = 0; i < n; i++) {
            var t = schema.tables().get(i);
            namespace[i] = SchemaRetriever.namespace(t.name());
            full[i] = renderer.full(new DatabaseSchema(schema.dbId(), List.of(t), List.of())).tokens();
            brief[i] = renderer.full(new DatabaseSchema(schema.dbId(), List.of(SchemaSubset.brief(t)), List.of())).tokens();
        }
        header = tokens.count(SchemaRenderer.FOREIGN_KEYS_HEADER);
        Map<String, Integer> index = index(schema);
        List<List<int[]>> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            lines.add(new ArrayList<>());
        }
        for (ForeignKey fk : schema.foreignKeys()) {
            Integer a = index.get(fk.from().table().toLowerCase(Locale.ROOT));
            Integer b = index.get(fk.to().table().toLowerCase(Locale.ROOT));
            if (a != null && b != null) {
                int c = tokens.count(SchemaRenderer.foreignKeyLine(fk));
                lines.get(a).add(new int[] {b, c});
                if (!a.equals(b)) {
                    lines.get(b).add(new int[] {a, c});
                }
            }
        }
        neighbour = new int[n][];
        lineTokens = new int[n][];
        for (int i = 0; i < n; i++) {
            neighbour[i] = lines.get(i).stream().mapToInt(l -> l[0]).toArray();
            lineTokens[i] = lines.get(i).stream().mapToInt(l -> l[1]).toArray();
        }
        whole = renderer.full(schema).tokens();
    }

    /** Each table's index by lower-cased name. */
    static Map<String, Integer> index(DatabaseSchema schema) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < schema.tables().size(); i++) {
            index.put(schema.tables().get(i).name().toLowerCase(Locale.ROOT), i);
        }
        return index;
    }
}

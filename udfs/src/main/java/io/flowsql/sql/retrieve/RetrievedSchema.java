package io.flowsql.sql.retrieve;

import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.List;

/**
 * What the retrieval hands the agents: the bounded schema, how many tokens its full rendering takes against the whole
 * (visible) schema's, whether anything was cut, and which schema namespaces it was routed to.
 *
 * @param schema      the tables kept, in the catalog's order, with the foreign keys among them
 * @param tokens      tokens of the bounded schema's full rendering
 * @param wholeTokens tokens of the whole visible schema's full rendering
 * @param tablesSeen  tables the retrieval chose from (those the policy lets this question see)
 * @param cut         false when the whole visible schema fit the budget (then {@code schema} is it, unchanged)
 * @param briefTables of the kept tables, those shown in brief (names, types and keys only)
 * @param schemas     the namespaces the tables were taken from, best-routed first (lower case; "" for unqualified
 *                    tables; empty when nothing was cut)
 */
public record RetrievedSchema(DatabaseSchema schema, int tokens, int wholeTokens, int tablesSeen, boolean cut,
                              List<String> briefTables, List<String> schemas) {
    public RetrievedSchema {
        briefTables = List.copyOf(briefTables);
        schemas = List.copyOf(schemas);
    }

    public List<String> tableNames() {
        return schema.tables().stream().map(TableSchema::name).toList();
    }

    /** One line for the trace: what was kept, of how much, under which budget. */
    public String describe(int budget) {
        String head = cut
                ? schema.tables().size() + " of " + tablesSeen + " tables (" + briefTables.size() + " in brief), " + tokens + " of " + wholeTokens + " tokens (budget " + budget + ")"
                        + (schemas.isEmpty() || schemas.equals(List.of("")) ? "" : ", schemas " + String.join(", ", schemas))
                : "whole schema: " + tablesSeen + " tables, " + wholeTokens + " tokens (budget " + budget + ")";
        return cut ? head + ": " + String.join(", ", tableNames()) : head;
    }
}

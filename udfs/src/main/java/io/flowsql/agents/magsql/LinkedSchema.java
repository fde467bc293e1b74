package io.flowsql.agents.magsql;

import io.flowsql.sql.ColumnRef;
import java.util.List;

/** What soft schema linking hands to the generators: the schema text to show, the linked columns (best first), the values found, and whether linking was skipped for a small schema. */
public record LinkedSchema(String schemaText, List<ColumnRef> linkedColumns, List<String> matchedValues, boolean skipped) {
    public LinkedSchema {
        linkedColumns = List.copyOf(linkedColumns);
        matchedValues = List.copyOf(matchedValues);
    }
}

package io.flowsql.sql;

import java.util.List;

/**
 * One column: original name, declared type, description (from Spider's natural names or BIRD's
 * description CSVs; may be empty), nullability, key flags and value examples chosen by MAG-SQL's rules.
 */
public record ColumnSchema(
        String table,
        String name,
        String type,
        String description,
        boolean nullable,
        boolean primaryKey,
        List<String> valueExamples) {

    public ColumnSchema {
        valueExamples = valueExamples == null ? List.of() : List.copyOf(valueExamples);
        description = description == null ? "" : description;
    }

    public ColumnRef ref() {
        return new ColumnRef(table, name);
    }
}

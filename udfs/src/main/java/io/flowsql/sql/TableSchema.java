package io.flowsql.sql;

import java.util.List;

/** One table with its columns (in declaration order) and its primary key columns. */
public record TableSchema(String name, String description, List<ColumnSchema> columns, List<String> primaryKey) {
    public TableSchema {
        columns = List.copyOf(columns);
        primaryKey = primaryKey == null ? List.of() : List.copyOf(primaryKey);
        description = description == null ? "" : description;
    }
}

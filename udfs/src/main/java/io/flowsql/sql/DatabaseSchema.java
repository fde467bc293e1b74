package io.flowsql.sql;

import java.util.List;
import java.util.Optional;

/** The schema of one database as the agents see it. */
public record DatabaseSchema(String dbId, List<TableSchema> tables, List<ForeignKey> foreignKeys) {
    public DatabaseSchema {
        tables = List.copyOf(tables);
        foreignKeys = List.copyOf(foreignKeys);
    }

    public Optional<TableSchema> table(String name) {
        return tables.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst();
    }

    public int columnCount() {
        return tables.stream().mapToInt(t -> t.columns().size()).sum();
    }
}

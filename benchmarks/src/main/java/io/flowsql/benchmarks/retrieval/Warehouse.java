package io.flowsql.benchmarks.retrieval;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.index.TextValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A warehouse-size test world made of many databases: every database becomes one schema namespace of a single
 * catalog (table {@code singer} of {@code concert_singer} becomes {@code concert_singer.singer}), so table names
 * collide across namespaces as they do in real warehouses; their text values become one value index's values.
 */
public final class Warehouse {
    private Warehouse() {}

    /** The tables, columns and foreign keys of every database, each under its own namespace. */
    public static DatabaseSchema merge(String id, Map<String, DatabaseSchema> databases) {
        List<TableSchema> tables = new ArrayList<>();
        List<ForeignKey> keys = new ArrayList<>();
        databases.forEach((db, schema) -> {
            for (TableSchema t : schema.tables()) {
                String name = qualified(db, t.name());
                List<ColumnSchema> columns = t.columns().stream().map(c -> new ColumnSchema(name, c.name(), c.type(),
                        c.description(), c.nullable(), c.primaryKey(), c.valueExamples())).toList();
                tables.add(new TableSchema(name, t.description(), columns, t.primaryKey()));
            }
            for (ForeignKey fk : schema.foreignKeys()) {
                keys.add(new ForeignKey(ref(db, fk.from()), ref(db, fk.to())));
            }
        });
        return new DatabaseSchema(id, tables, keys);
    }

    /** The text values of every database, their columns renamed as in {@link #merge}. */
    public static TextValues mergeValues(Map<String, TextValues> databases) {
        List<ColumnRef> columns = new ArrayList<>();
        int total = databases.values().stream().mapToInt(TextValues::size).sum();
        int[] owner = new int[total];
        String[] values = new String[total];
        int at = 0;
        for (Map.Entry<String, TextValues> e : databases.entrySet()) {
            int base = columns.size();
            e.getValue().columns().forEach(c -> columns.add(ref(e.getKey(), c)));
            for (int i = 0; i < e.getValue().size(); i++) {
                owner[at] = base + e.getValue().columnOfValue()[i];
                values[at++] = e.getValue().values()[i];
            }
        }
        return new TextValues(columns, owner, values);
    }

    public static String qualified(String db, String table) {
        return db + "." + table;
    }

    private static ColumnRef ref(String db, ColumnRef c) {
        return new ColumnRef(qualified(db, c.table()), c.column());
    }
}

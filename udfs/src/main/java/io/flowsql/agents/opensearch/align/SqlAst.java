package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.engine.SqlParsing;
import io.flowsql.sql.TableSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/** The small part of SQL analysis the alignment rules share: parsing (a failure means "leave it alone") and resolving a column to its table. */
final class SqlAst {
    private SqlAst() {}

    static Optional<Select> parse(String sql) {
        return SqlParsing.parse(sql).filter(Select.class::isInstance).map(Select.class::cast);
    }

    /** Alias (and name) to table name, for the tables of one SELECT's FROM and JOINs. */
    static Map<String, String> tablesOf(PlainSelect select) {
        Map<String, String> tables = new HashMap<>();
        addTable(tables, select.getFromItem());
        List<Join> joins = select.getJoins();
        if (joins != null) {
            joins.forEach(j -> addTable(tables, j.getFromItem()));
        }
        return tables;
    }

    private static void addTable(Map<String, String> tables, Object fromItem) {
        if (fromItem instanceof Table table) {
            String name = unquote(table.getName());
            tables.put(name.toLowerCase(Locale.ROOT), name);
            if (table.getAlias() != null) {
                tables.put(unquote(table.getAlias().getName()).toLowerCase(Locale.ROOT), name);
            }
        }
    }

    /** The schema column a column reference denotes among the given tables: by its qualifier, or the only table that has it. */
    static Optional<ColumnSchema> resolve(Column column, Map<String, String> tables, DatabaseSchema schema) {
        String name = unquote(column.getColumnName());
        if (column.getTable() != null && column.getTable().getName() != null) {
            String table = tables.get(unquote(column.getTable().getName()).toLowerCase(Locale.ROOT));
            return table == null ? Optional.empty() : columnOf(schema, table, name);
        }
        List<ColumnSchema> candidates = tables.values().stream().distinct()
                .flatMap(t -> columnOf(schema, t, name).stream()).toList();
        return candidates.size() == 1 ? Optional.of(candidates.get(0)) : Optional.empty();
    }

    static Optional<ColumnSchema> columnOf(DatabaseSchema schema, String table, String column) {
        return schema.table(table).map(TableSchema::columns).orElse(List.of()).stream()
                .filter(c -> c.name().equalsIgnoreCase(column)).findFirst();
    }

    static String unquote(String name) {
        if (name == null || name.length() < 2) {
            return name;
        }
        char first = name.charAt(0);
        char last = name.charAt(name.length() - 1);
        if ((first == '"' && last == '"') || (first == '`' && last == '`') || (first == '[' && last == ']')) {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }
}

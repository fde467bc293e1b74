package io.flowsql.sql.retrieve;

import io.flowsql.sql.ColumnRef;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Scores a scorer gives a question's tables and columns (0 = nothing seen; higher = more relevant), keyed by lower-cased
 * name so scorers can be added up.
 */
public final class Relevance {
    private final Map<String, Double> tables = new HashMap<>();
    private final Map<String, Double> columns = new HashMap<>();

    public void addTable(String table, double score) {
        if (score != 0) {
            tables.merge(table.toLowerCase(Locale.ROOT), score, Double::sum);
        }
    }

    public void addColumn(ColumnRef column, double score) {
        if (score != 0) {
            columns.merge(key(column), score, Double::sum);
        }
    }

    public double table(String table) {
        return tables.getOrDefault(table.toLowerCase(Locale.ROOT), 0.0);
    }

    public double column(ColumnRef column) {
        return columns.getOrDefault(key(column), 0.0);
    }

    /** This plus {@code other}, scaled by {@code weight}. */
    public void add(Relevance other, double weight) {
        other.tables.forEach((k, v) -> tables.merge(k, v * weight, Double::sum));
        other.columns.forEach((k, v) -> columns.merge(k, v * weight, Double::sum));
    }

    private static String key(ColumnRef c) {
        return (c.table() + "\u0000" + c.column()).toLowerCase(Locale.ROOT);
    }
}

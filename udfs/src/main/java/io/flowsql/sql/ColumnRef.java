package io.flowsql.sql;

/** A column named by table and column (original names, as in the database). */
public record ColumnRef(String table, String column) {
    @Override
    public String toString() {
        return table + "." + column;
    }
}

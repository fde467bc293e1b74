package io.flowsql.sql;

/** A text value stored in the database that a question mentions, with where it lives and how well it matched (0..1). */
public record ValueMatch(String table, String column, String value, double score) {
    public ColumnRef columnRef() {
        return new ColumnRef(table, column);
    }
}

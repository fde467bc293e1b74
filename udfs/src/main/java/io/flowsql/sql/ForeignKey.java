package io.flowsql.sql;

/** A foreign key: {@code from} references {@code to}. */
public record ForeignKey(ColumnRef from, ColumnRef to) {}

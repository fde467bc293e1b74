package io.flowsql.sql;

/** Value indexes by database id, each built once and cached. */
public interface ValueIndexProvider {
    ValueIndex forDatabase(String dbId);
}

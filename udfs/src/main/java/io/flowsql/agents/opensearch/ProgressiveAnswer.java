package io.flowsql.agents.opensearch;

/** OpenSearch-SQL §3.3's progressive output, one field per tag; {@code sql} is the query to run. */
public record ProgressiveAnswer(String reason, String columns, String values, String select, String sqlLike, String sql) {}

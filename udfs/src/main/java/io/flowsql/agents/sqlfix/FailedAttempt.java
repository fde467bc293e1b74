package io.flowsql.agents.sqlfix;

/** One SQL this request already tried and why it did not do (its execution error or "no rows"). */
public record FailedAttempt(String source, String sql, String error) {}

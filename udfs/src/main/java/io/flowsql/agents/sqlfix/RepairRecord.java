package io.flowsql.agents.sqlfix;

/**
 * One repair the refiner made (SQLFixAgent §3.3): the question, the SQL that was wrong, the SQL that
 * replaced it and what was wrong, so later requests with similar questions can learn from it.
 */
public record RepairRecord(String dbId, String question, String wrongSql, String fixedSql, String whatWasWrong) {}

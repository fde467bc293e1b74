package io.flowsql.agents.sqlfix;

/** The refiner's final SQL: which candidate it chose ("repair" when it wrote the SQL), what was wrong, and how many attempts it took. */
public record Refinement(String sql, String choice, String whatWasWrong, int attempts) {}

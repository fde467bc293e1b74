package io.flowsql.agents.opensearch.fewshot;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One line of an example library (JSON Lines): the question, the question with its schema words and values
 * masked (what retrieval compares), an optional reasoning, and the SQL. See docs/AGENTS.md "Dynamic few-shot".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FewShotExample(String id, String dbId, String question, String maskedQuestion, String reasoning, String sql) {}

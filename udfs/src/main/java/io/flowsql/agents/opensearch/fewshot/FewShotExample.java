package io.flowsql.agents.opensearch.fewshot;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One line of an example library (JSON Lines): the question, the question with its schema words and values
 * masked (what retrieval compares), an optional reasoning (question → chain of thought → SQL, as OpenSearch-SQL's
 * examples), and the SQL. A reasoning written by a model names it ({@code reasoningModel}) and says whether that model
 * was the project's simulator ({@code reasoningSimulated}: a text made from the SQL by rules, not a model's thought).
 * See docs/AGENTS.md "Dynamic few-shot".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FewShotExample(String id, String dbId, String question, String maskedQuestion, String reasoning, String sql,
                             String reasoningModel, Boolean reasoningSimulated) {

    /** An example whose reasoning (if any) has no recorded author. */
    public FewShotExample(String id, String dbId, String question, String maskedQuestion, String reasoning, String sql) {
        this(id, dbId, question, maskedQuestion, reasoning, sql, null, null);
    }

    /** This example with {@code text} as its reasoning, written by {@code model} (simulated or not). */
    public FewShotExample withReasoning(String text, String model, boolean simulated) {
        return new FewShotExample(id, dbId, question, maskedQuestion, text, sql, model, simulated);
    }
}

package io.flowsql.agents.opensearch.correct;

/**
 * OpenSearch-SQL's kinds of execution problem, each corrected with its own prompt
 * ({@code prompts/opensearch/correct_<slug>.system.txt}); a lower severity is a better outcome.
 */
public enum ErrorClass {
    /** SQLite could not parse the statement. */
    SYNTAX("syntax", 3),
    /** An unknown or ambiguous table or column. */
    SCHEMA("schema", 3),
    /** Refused, timed out or failed while running. */
    FAILED("failed", 3),
    /** Ran, no rows. */
    EMPTY("empty", 2),
    /** Ran, NULL in the answer. */
    NULLS("nulls", 1),
    /** Ran, but the answer's shape does not fit the question (no number for "how many", many rows for "the most"). */
    SHAPE("shape", 1);

    private final String slug;
    private final int severity;

    ErrorClass(String slug, int severity) {
        this.slug = slug;
        this.severity = severity;
    }

    public String slug() {
        return slug;
    }

    public int severity() {
        return severity;
    }

    /** The stage name of this class's correction call. */
    public String task() {
        return "opensearch.correct." + slug;
    }

    public String promptBase() {
        return "opensearch/correct_" + slug;
    }
}

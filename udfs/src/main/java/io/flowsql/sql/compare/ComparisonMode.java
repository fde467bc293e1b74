package io.flowsql.sql.compare;

/** Which benchmark's notion of "the same result" to apply; see docs/DATABASE.md for the exact policy. */
public enum ComparisonMode {
    /** BIRD's evaluator: the rows as a set (duplicates and order ignored, column order kept). */
    BIRD_SET,
    /**
     * Spider's test-suite evaluator: the rows as a multiset, in order when the gold query sorts at top
     * level, and any permutation of the columns accepted.
     */
    SPIDER_TEST_SUITE
}

package io.flowsql.agents.common;

/** The fixed stage names: the Flink job derives operator uids from them, so they must never change. */
public final class StageNames {
    public static final String MMSQL_REWRITE = "mmsql.rewrite";
    public static final String MMSQL_SELECT = "mmsql.select";
    public static final String MMSQL_DETECT = "mmsql.detect";
    public static final String MMSQL_DECOMPOSE = "mmsql.decompose";
    public static final String MMSQL_REFINE = "mmsql.refine";
    public static final String MAGSQL_LINK = "magsql.link";
    public static final String MAGSQL_DECOMPOSE = "magsql.decompose";
    public static final String MAGSQL_GENERATE = "magsql.generate";
    public static final String OPENSEARCH_FEWSHOT = "opensearch.fewshot";
    public static final String OPENSEARCH_GENERATE = "opensearch.generate";
    public static final String OPENSEARCH_ADHERENCE = "opensearch.adherence";
    public static final String OPENSEARCH_ALIGN = "opensearch.align";
    public static final String CANDIDATES_EXECUTE = "candidates.execute";
    public static final String OPENSEARCH_CORRECT = "opensearch.correct";
    public static final String OPENSEARCH_VOTE = "opensearch.vote";
    public static final String SQLFIX_REVIEW = "sqlfix.review";
    public static final String SQLFIX_CRAFT = "sqlfix.craft";
    public static final String SQLFIX_EXECUTE = "sqlfix.execute";
    public static final String SQLFIX_REFINE = "sqlfix.refine";
    public static final String MMSQL_READINGS = "mmsql.readings";
    public static final String ANSWER_FINALIZE = "answer.finalize";

    private StageNames() {}
}

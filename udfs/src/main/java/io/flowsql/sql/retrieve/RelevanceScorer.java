package io.flowsql.sql.retrieve;

import io.flowsql.sql.DatabaseSchema;

/**
 * One way of judging which tables and columns a question is about. {@link LexicalScorer} (names, descriptions and
 * value-index hits) is the default; an embedding scorer (cosine similarity of the question and each column's text)
 * plugs in beside it through {@link #plus}.
 */
@FunctionalInterface
public interface RelevanceScorer {

    Relevance score(DatabaseSchema schema, RetrievalQuery query);

    /** This scorer's scores plus {@code other}'s, scaled by {@code weight}. */
    default RelevanceScorer plus(RelevanceScorer other, double weight) {
        return (schema, query) -> {
            Relevance sum = score(schema, query);
            sum.add(other.score(schema, query), weight);
            return sum;
        };
    }
}

package io.flowsql.sql.retrieve;

import io.flowsql.sql.ValueMatch;
import java.util.List;
import java.util.Set;

/**
 * What the retrieval ranks the schema against: the question (with its evidence), its words, and the database values
 * the value index found in it (each pointing at the column holding it).
 */
public record RetrievalQuery(String text, Set<String> words, List<ValueMatch> values) {
    public RetrievalQuery {
        text = text == null ? "" : text;
        words = Set.copyOf(words);
        values = values == null ? List.of() : List.copyOf(values);
    }

    public static RetrievalQuery of(String question, String evidence, List<ValueMatch> values) {
        String text = evidence == null || evidence.isBlank() ? question : question + " " + evidence;
        return new RetrievalQuery(text, Words.withCompounds(text), values);
    }
}

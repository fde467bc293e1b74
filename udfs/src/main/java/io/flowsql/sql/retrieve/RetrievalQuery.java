package io.flowsql.sql.retrieve;

import io.flowsql.sql.ValueMatch;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the retrieval ranks the schema against: the question (with its evidence), its words, the database values the
 * value index found in it (each pointing at the column holding it), and the schema namespaces the dialogue's previous
 * turn read (lower case; empty for a first question).
 */
public record RetrievalQuery(String text, Set<String> words, List<ValueMatch> values, Set<String> previousSchemas) {
    public RetrievalQuery {
        text = text == null ? "" : text;
        words = Set.copyOf(words);
        values = values == null ? List.of() : List.copyOf(values);
        previousSchemas = previousSchemas == null ? Set.of()
                : previousSchemas.stream().map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }

    public static RetrievalQuery of(String question, String evidence, List<ValueMatch> values) {
        String text = evidence == null || evidence.isBlank() ? question : question + " " + evidence;
        return new RetrievalQuery(text, Synonyms.expand(Words.withCompounds(text)), values, Set.of());
    }

    /** This query, in a dialogue whose previous turn read {@code schemas}. */
    public RetrievalQuery afterTurnIn(Set<String> schemas) {
        return new RetrievalQuery(text, words, values, schemas);
    }
}

package io.flowsql.agents.sqlfix;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How alike two (question, SQL) pairs are, as the Jaccard overlap of their word sets, the question
 * weighted above the SQL: cheap, needs no model, and good enough to find repairs of similar questions.
 */
record TokenOverlap(Set<String> questionWords, Set<String> sqlWords) {
    private static final double QUESTION_WEIGHT = 0.6;

    static TokenOverlap of(String question, String sql) {
        return new TokenOverlap(words(question), words(sql));
    }

    double similarity(TokenOverlap other) {
        return QUESTION_WEIGHT * jaccard(questionWords, other.questionWords)
                + (1 - QUESTION_WEIGHT) * jaccard(sqlWords, other.sqlWords);
    }

    private static Set<String> words(String text) {
        if (text == null) {
            return Set.of();
        }
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+"))
                .filter(w -> w.length() > 1)
                .collect(Collectors.toSet());
    }

    private static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        long shared = a.stream().filter(b::contains).count();
        return (double) shared / union.size();
    }
}

package io.flowsql.sql.index;

import io.flowsql.sql.ValueMatch;
import java.util.Comparator;
import java.util.List;

/** One ranking for both value indexes, so their results are comparable: score, then longer values, then name. */
final class MatchRanking {

    static final Comparator<ValueMatch> ORDER = Comparator.comparingDouble(ValueMatch::score).reversed()
            .thenComparing(Comparator.comparingInt((ValueMatch m) -> m.value().length()).reversed())
            .thenComparing(ValueMatch::value).thenComparing(ValueMatch::table).thenComparing(ValueMatch::column);

    private MatchRanking() {}

    static List<ValueMatch> top(List<ValueMatch> matches, int limit) {
        return matches.stream().sorted(ORDER).limit(limit).toList();
    }
}

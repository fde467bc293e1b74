package io.flowsql.sql.index;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.ValueMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The plain baseline of MAG-SQL's value retrieval: score every value of the database against the question. */
public final class LcsScanValueIndex implements ValueIndex {

    private final TextValues values;
    private final String[] lowered;
    private final LcsValueScorer scorer;

    public LcsScanValueIndex(TextValues values, LcsValueScorer scorer) {
        this.values = values;
        this.scorer = scorer;
        this.lowered = new String[values.size()];
        for (int i = 0; i < lowered.length; i++) {
            lowered[i] = values.values()[i].toLowerCase(Locale.ROOT);
        }
    }

    @Override
    public List<ValueMatch> find(String text, int limit) {
        String question = text.toLowerCase(Locale.ROOT);
        List<ValueMatch> matches = new ArrayList<>();
        for (int i = 0; i < lowered.length; i++) {
            double score = scorer.score(question, lowered[i]);
            if (score > 0) {
                ColumnRef column = values.columns().get(values.columnOfValue()[i]);
                matches.add(new ValueMatch(column.table(), column.column(), values.values()[i], score));
            }
        }
        return MatchRanking.top(matches, limit);
    }
}

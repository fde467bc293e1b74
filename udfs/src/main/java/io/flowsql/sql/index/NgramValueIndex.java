package io.flowsql.sql.index;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.ValueMatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Value retrieval without scanning every value: an inverted index from character trigrams to values,
 * built once per database. A value is only scored (with the same LCS rule as the scan) when it shares
 * enough distinct trigrams with the question that its LCS could reach the threshold, a bound that never
 * drops a value the scan would find.
 */
public final class NgramValueIndex implements ValueIndex {

    private static final int N = 3;

    private final TextValues values;
    private final String[] lowered;
    private final int[] requiredShared;
    private final Map<Long, int[]> postings;
    private final LcsValueScorer scorer;

    public NgramValueIndex(TextValues values, LcsValueScorer scorer) {
        this.values = values;
        this.scorer = scorer;
        int size = values.size();
        this.lowered = new String[size];
        this.requiredShared = new int[size];
        Map<Long, int[]> counts = new HashMap<>();
        for (int v = 0; v < size; v++) {
            lowered[v] = values.values()[v].toLowerCase(Locale.ROOT);
            Set<Long> grams = trigrams(lowered[v]);
            int repeated = Math.max(0, lowered[v].length() - N + 1) - grams.size();
            requiredShared[v] = Math.max(1, scorer.requiredRun(lowered[v].length()) - (N - 1) - repeated);
            for (Long gram : grams) {
                counts.computeIfAbsent(gram, g -> new int[1])[0]++;
            }
        }
        this.postings = new HashMap<>(counts.size() * 2);
        Map<Long, int[]> fill = new HashMap<>(counts.size() * 2);
        counts.forEach((gram, count) -> {
            postings.put(gram, new int[count[0]]);
            fill.put(gram, new int[1]);
        });
        for (int v = 0; v < size; v++) {
            for (Long gram : trigrams(lowered[v])) {
                int[] cursor = fill.get(gram);
                postings.get(gram)[cursor[0]++] = v;
            }
        }
    }

    public int size() {
        return values.size();
    }

    @Override
    public List<ValueMatch> find(String text, int limit) {
        String question = text.toLowerCase(Locale.ROOT);
        int[] shared = new int[values.size()];
        int[] touched = new int[16];
        int touchedCount = 0;
        for (Long gram : trigrams(question)) {
            int[] list = postings.get(gram);
            if (list == null) {
                continue;
            }
            for (int v : list) {
                if (shared[v]++ == 0) {
                    if (touchedCount == touched.length) {
                        touched = java.util.Arrays.copyOf(touched, touchedCount * 2);
                    }
                    touched[touchedCount++] = v;
                }
            }
        }
        List<ValueMatch> matches = new ArrayList<>();
        for (int t = 0; t < touchedCount; t++) {
            int v = touched[t];
            if (shared[v] < requiredShared[v]) {
                continue;
            }
            double score = scorer.score(question, lowered[v]);
            if (score > 0) {
                ColumnRef column = values.columns().get(values.columnOfValue()[v]);
                matches.add(new ValueMatch(column.table(), column.column(), values.values()[v], score));
            }
        }
        return MatchRanking.top(matches, limit);
    }

    static Set<Long> trigrams(String text) {
        Set<Long> grams = new HashSet<>();
        for (int i = 0; i + N <= text.length(); i++) {
            grams.add(((long) text.charAt(i) << 32) | ((long) text.charAt(i + 1) << 16) | text.charAt(i + 2));
        }
        return grams;
    }
}

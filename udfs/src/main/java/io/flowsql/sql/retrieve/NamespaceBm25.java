package io.flowsql.sql.retrieve;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Okapi BM25 over schema namespaces: each namespace is one document made of the words of its name, its tables' names
 * and descriptions and its columns' names and descriptions (identifiers split and stemmed by {@link Words}; the
 * namespace's and tables' names counted twice). Rare words weigh more than words every database has ("name",
 * "date"), which a per-table word match cannot know. A question word that starts a document word (or is started by
 * one, four letters or more) counts at {@value #PREFIX_WEIGHT}. Built once per schema object.
 */
final class NamespaceBm25 {
    static final double K1 = 1.2;
    static final double B = 0.75;
    static final double PREFIX_WEIGHT = 0.6;
    static final int NAME_REPEAT = 2;

    private final List<String> namespaces = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final List<Map<String, Integer>> termCounts = new ArrayList<>();
    private final Map<String, Integer> documentFrequency = new HashMap<>();
    private final double[] length;
    private final double averageLength;
    private final Cache<String, List<String>> prefixed = Caffeine.newBuilder().maximumSize(20_000).build();

    NamespaceBm25(DatabaseSchema schema) {
        for (TableSchema t : schema.tables()) {
            String ns = SchemaRetriever.namespace(t.name());
            Integer at = index.get(ns);
            if (at == null) {
                at = namespaces.size();
                index.put(ns, at);
                namespaces.add(ns);
                Map<String, Integer> counts = new HashMap<>();
                termCounts.add(counts);
                add(counts, Words.ofName(ns), NAME_REPEAT);
            }
            Map<String, Integer> counts = termCounts.get(at);
            int dot = t.name().lastIndexOf('.');
            add(counts, Words.ofName(t.name().substring(dot + 1)), NAME_REPEAT);
            add(counts, Words.ofText(t.description()), 1);
            for (ColumnSchema c : t.columns()) {
                add(counts, Words.ofName(c.name()), 1);
                add(counts, Words.ofText(c.description()), 1);
            }
        }
        length = new double[namespaces.size()];
        double total = 0;
        for (int d = 0; d < namespaces.size(); d++) {
            for (Map.Entry<String, Integer> e : termCounts.get(d).entrySet()) {
                length[d] += e.getValue();
                documentFrequency.merge(e.getKey(), 1, Integer::sum);
            }
            total += length[d];
        }
        averageLength = namespaces.isEmpty() ? 1 : total / namespaces.size();
    }

    private static void add(Map<String, Integer> counts, Iterable<String> words, int times) {
        for (String w : words) {
            counts.merge(w, times, Integer::sum);
        }
    }

    /** Each namespace's BM25 score for the question's words, keyed by lower-cased namespace. */
    Map<String, Double> score(RetrievalQuery query) {
        Map<String, Double> weights = expand(query);
        Map<String, Double> out = new HashMap<>();
        int n = namespaces.size();
        for (int d = 0; d < n; d++) {
            Map<String, Integer> counts = termCounts.get(d);
            double s = 0;
            for (Map.Entry<String, Double> q : weights.entrySet()) {
                Integer tf = counts.get(q.getKey());
                if (tf == null) {
                    continue;
                }
                int df = documentFrequency.get(q.getKey());
                double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
                s += q.getValue() * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length[d] / averageLength));
            }
            if (s > 0) {
                out.put(namespaces.get(d), s);
            }
        }
        return out;
    }

    /** The document words the question's words meet, each with the best weight a question word gives it. */
    private Map<String, Double> expand(RetrievalQuery query) {
        Map<String, Double> out = new HashMap<>();
        for (String q : query.words()) {
            if (documentFrequency.containsKey(q)) {
                out.merge(q, 1.0, Math::max);
            }
            if (q.length() >= 4) {
                for (String term : prefixed.get(q, this::prefixed)) {
                    out.merge(term, PREFIX_WEIGHT, Math::max);
                }
            }
        }
        return out;
    }

    /** The document words other than {@code q} that start it or that it starts (a scan of the vocabulary, cached per word). */
    private List<String> prefixed(String q) {
        List<String> out = new ArrayList<>();
        for (String term : documentFrequency.keySet()) {
            if (!term.equals(q) && Words.match(q, term) > 0) {
                out.add(term);
            }
        }
        return out;
    }
}

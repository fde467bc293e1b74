package io.flowsql.sql.retrieve;

import io.flowsql.sql.DatabaseSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a retrieval offers tables to the budget: schema namespaces first, then tables within them. A
 * question is about one database, and in a warehouse a database is one schema namespace, so namespaces are ranked by
 * their BM25 score as documents ({@link NamespaceBm25}: rare words count, words every database has do not), plus their
 * best tables' scores (the best, half the second, a quarter of the third), plus their best exact value-index hit.
 * Then the tables that matched (or whose foreign-key neighbours did) are offered namespace by namespace, best
 * namespace first, so the matched tables of the next likely databases come before the unmatched tables of the first
 * (a name like {@code documents} or {@code city} is in many databases, and brief renderings let several fit); after
 * them the unmatched tables of the matched namespaces, in the same order. Tables outside any namespace (unqualified
 * names) are offered only when they matched.
 */
final class NamespaceOrder {
    static final double[] TOP_WEIGHTS = {1.0, 0.5, 0.25};
    /** Weights of a namespace's best tables' scores and of its BM25 score, each scaled to the best namespace's (= 1). */
    static final double TABLES_WEIGHT = 1;
    static final double DOCUMENT_WEIGHT = 4;
    /** Weight of the best value-index hit in a namespace (hits scoring at least {@link NamespaceBm25#VALUE_THRESHOLD}). */
    static final double VALUE_WEIGHT = 0.3;

    private NamespaceOrder() {}

    /**
     * Table indexes of {@code schema} in the order to offer them.
     *
     * @param score     each table's score (own, foreign-key neighbours' share, its namespace's best share)
     * @param own       each table's own score plus its neighbours' share (positive: the table matched)
     * @param documents each namespace's BM25 score
     * @param values    each namespace's best value-index hit
     */
    static List<Integer> of(DatabaseSchema schema, double[] score, double[] own, Map<String, Double> documents,
            Map<String, Double> values) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < score.length; i++) {
            groups.computeIfAbsent(SchemaRetriever.namespace(schema.tables().get(i).name()), k -> new ArrayList<>()).add(i);
        }
        Comparator<Integer> best = Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingInt(i -> i);
        List<Group> ranked = new ArrayList<>();
        Map<String, Double> tables = new HashMap<>();
        groups.forEach((ns, members) -> {
            members.sort(best);
            double s = 0;
            for (int k = 0; k < Math.min(TOP_WEIGHTS.length, members.size()); k++) {
                s += TOP_WEIGHTS[k] * score[members.get(k)];
            }
            tables.put(ns, s);
        });
        double maxTables = max(tables);
        double maxDocuments = max(documents);
        groups.forEach((ns, members) -> {
            double s = TABLES_WEIGHT * tables.get(ns) / maxTables
                    + DOCUMENT_WEIGHT * documents.getOrDefault(ns, 0.0) / maxDocuments
                    + VALUE_WEIGHT * values.getOrDefault(ns, 0.0);
            if (s > 0) {
                ranked.add(new Group(ns, members, s));
            }
        });
        ranked.sort(Comparator.comparingDouble(g -> -g.score));
        List<Integer> out = new ArrayList<>();
        boolean[] taken = new boolean[score.length];
        for (int g = 0; g < ranked.size(); g++) {
            // first the tables that matched (or whose foreign-key neighbours did), namespace by namespace
            for (int i : ranked.get(g).members) {
                if (own[i] > 0) {
                    out.add(i);
                    taken[i] = true;
                }
            }
        }
        for (Group g : ranked) {
            for (int i : g.members) {
                if (!taken[i] && !g.namespace.isEmpty()) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    private static double max(Map<String, Double> scores) {
        return Math.max(1e-9, scores.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    private record Group(String namespace, List<Integer> members, double score) {}
}

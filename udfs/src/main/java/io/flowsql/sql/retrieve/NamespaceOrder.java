package io.flowsql.sql.retrieve;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Schema routing, then the order in which a retrieval offers tables to the budget. A question is about one database,
 * and in a warehouse a database is one schema namespace, so namespaces are ranked first: by their BM25 score as
 * documents ({@link NamespaceBm25}: rare words count, words every database has do not), plus their best tables'
 * scores (the best, half the second, a quarter of the third), plus their best exact value-index hit, plus a bonus for
 * the namespace the dialogue's previous turn used. Only the best {@value #ROUTED} namespaces are offered at all, so a
 * prompt never carries one table from each of forty schemas: first the best namespace's tables that matched (or whose
 * foreign-key neighbours did); then the tables the question names in the other routed namespaces (their own words
 * matched, or they join two tables whose words did), namespace by namespace; then those namespaces' tables that only
 * hang off a match; then the unmatched tables of all routed namespaces in the same order. So a table the question
 * names in the second or sixth namespace is not crowded out by the neighbours of a match in the third. Tables outside
 * any namespace (unqualified names, a single database) are offered only when they matched.
 *
 * <p>Colliding names (the same table name in several namespaces): a table's own words score every copy alike, so
 * the namespace's rank decides — the copy in the best-routed namespace is offered first, a copy in a namespace outside
 * the routed few is never offered; namespaces with equal scores keep the catalog's order.
 */
final class NamespaceOrder {
    static final double[] TOP_WEIGHTS = {1.0, 0.5, 0.25};
    /** Weights of a namespace's best tables' scores and of its BM25 score, each scaled to the best namespace's (= 1). */
    static final double TABLES_WEIGHT = 1;
    static final double DOCUMENT_WEIGHT = 4;
    /**
     * Weight of the values the question names from a namespace ({@link NamespaceValues}: a value found in one
     * namespace only adds 4, about what the best BM25 score does). On the tuning half of Spider dev at 411 tokens,
     * 0.3 kept 0.954 of the gold tables, 1 0.955, 2 0.959, 4 and 8 0.967, 16 0.941 (values then outvote the words).
     */
    static final double VALUE_WEIGHT = 4;
    /** Added to the namespace the dialogue's previous turn read (a follow-up usually stays in its database). */
    static final double PREVIOUS_WEIGHT = 1.5;
    /**
     * Namespaces whose tables a retrieval offers at most. On every 10th Spider dev question (all in the tuning half),
     * 3, 5 and 8 keep the same recall at the median prompt (411 tokens); at four times it 8 keeps 0.990 of the gold
     * tables, 5 0.969, 3 fewer: the right schema is often second to eighth when it is not first.
     */
    static final int ROUTED = 8;

    private NamespaceOrder() {}

    /** The routed namespaces, best first, and the table indexes to offer, in order. */
    record Routing(List<String> namespaces, List<Integer> order) {}

    /**
     * @param namespace each table's namespace (lower case; "" for an unqualified name)
     * @param score     each table's score (own, foreign-key neighbours' share, its namespace's best share)
     * @param own       each table's own score plus its neighbours' share (positive: the table matched)
     * @param named     whether the question names the table itself (its own words matched) or it joins two tables
     *                  the question names
     * @param documents each namespace's BM25 score
     * @param values    each namespace's best value-index hit
     * @param previous  the namespaces the dialogue's previous turn read (lower case)
     */
    static Routing of(String[] namespace, double[] score, double[] own, boolean[] named, Map<String, Double> documents,
            Map<String, Double> values, Set<String> previous) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < score.length; i++) {
            groups.computeIfAbsent(namespace[i], k -> new ArrayList<>()).add(i);
        }
        Comparator<Integer> best = Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingInt(i -> i);
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
        List<Group> ranked = new ArrayList<>();
        groups.forEach((ns, members) -> {
            double s = TABLES_WEIGHT * tables.get(ns) / maxTables
                    + DOCUMENT_WEIGHT * documents.getOrDefault(ns, 0.0) / maxDocuments
                    + VALUE_WEIGHT * values.getOrDefault(ns, 0.0)
                    + (previous.contains(ns) ? PREVIOUS_WEIGHT : 0);
            if (s > 0) {
                ranked.add(new Group(ns, members, s));
            }
        });
        ranked.sort(Comparator.comparingDouble(g -> -g.score));  // stable: equal scores keep the catalog's order
        List<Group> routed = ranked.subList(0, Math.min(ROUTED, ranked.size()));
        List<Integer> out = new ArrayList<>();
        boolean[] taken = new boolean[score.length];
        offer(routed.subList(0, Math.min(1, routed.size())), i -> own[i] > 0, out, taken);  // (named only: 0.972 → 0.969, joins lost)
        offer(routed, i -> named[i], out, taken);
        offer(routed, i -> own[i] > 0, out, taken);
        for (Group g : routed) {
            for (int i : g.members) {
                if (!taken[i] && !g.namespace.isEmpty()) {
                    out.add(i);
                }
            }
        }
        return new Routing(routed.stream().map(Group::namespace).toList(), out);
    }

    /** Appends the routed namespaces' tables that pass {@code wanted} and are not taken yet, namespace by namespace. */
    private static void offer(List<Group> routed, java.util.function.IntPredicate wanted, List<Integer> out, boolean[] taken) {
        for (Group g : routed) {
            for (int i : g.members) {
                if (!taken[i] && wanted.test(i)) {
                    out.add(i);
                    taken[i] = true;
                }
            }
        }
    }

    private static double max(Map<String, Double> scores) {
        return Math.max(1e-9, scores.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    private record Group(String namespace, List<Integer> members, double score) {}
}

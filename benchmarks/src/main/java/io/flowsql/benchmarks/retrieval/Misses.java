package io.flowsql.benchmarks.retrieval;

import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Asked;
import io.flowsql.sql.retrieve.RetrievedSchema;
import io.flowsql.sql.retrieve.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The questions whose gold tables a retrieval left out, each with why ({@code --misses N}: the first N of the held-out
 * half, then of the tuning half, so a fix is chosen on the tuning half and checked on the other). Why, from what the
 * retrieval returned: the question's own schema was not routed first (another schema's tables took the budget), or
 * it was and a gold table was left out although its name shares a word with the question (trimmed by the budget), or
 * left out and its name shares none (ranked low: only the question's other words could have offered it).
 */
final class Misses {
    static final String WRONG_SCHEMA = "wrong schema routed first";
    static final String TRIMMED = "right schema, table trimmed by the budget";
    static final String RANKED_LOW = "right schema, table ranked low (no word of its name in the question)";

    /** One question that lost a gold table. */
    record Miss(Asked asked, List<String> gold, List<String> missing, List<String> routed, int ownRank,
                List<String> kept, String why) {}

    private final int limit;
    private final List<Miss> heldOut = new ArrayList<>();
    private final List<Miss> tuning = new ArrayList<>();
    private final List<Integer> heldOutByClass = new ArrayList<>(List.of(0, 0, 0));
    private final List<Integer> tuningByClass = new ArrayList<>(List.of(0, 0, 0));

    /** @param limit questions printed of each half (0: none collected) */
    Misses(int limit) {
        this.limit = limit;
    }

    boolean wanted() {
        return limit > 0;
    }

    /**
     * @param ns   the question's own schema (lower case)
     * @param gold the gold query's tables, unqualified
     * @param kept the retrieved tables, qualified and lower case
     */
    Miss add(Asked a, String ns, List<String> gold, Set<String> kept, RetrievedSchema got) {
        List<String> missing = gold.stream().filter(t -> !kept.contains(RetrievalMeasure.qualified(ns, t))).toList();
        if (missing.isEmpty()) {
            return null;
        }
        int rank = got.cut() ? got.schemas().indexOf(ns) : 0;
        String why = rank != 0 ? WRONG_SCHEMA : classOf(a, missing);
        Miss m = new Miss(a, gold, missing, got.schemas(), rank, got.tableNames(), why);
        List<Integer> counts = a.heldOut() ? heldOutByClass : tuningByClass;
        int k = why.equals(WRONG_SCHEMA) ? 0 : why.equals(TRIMMED) ? 1 : 2;
        counts.set(k, counts.get(k) + 1);
        List<Miss> half = a.heldOut() ? heldOut : tuning;
        if (half.size() < limit) {
            half.add(m);
        }
        return m;
    }

    /** Trimmed when a missing table's name shares a word with the question (it matched, the budget ran out), else ranked low. */
    static String classOf(Asked a, List<String> missing) {
        Set<String> words = new HashSet<>(Words.ofText(a.question() + " " + (a.evidence() == null ? "" : a.evidence())));
        for (String t : missing) {
            for (String w : Words.ofName(t)) {
                if (words.contains(w)) {
                    return TRIMMED;
                }
            }
        }
        return RANKED_LOW;
    }

    void print() {
        print("held-out", heldOut, heldOutByClass);
        print("tuning", tuning, tuningByClass);
    }

    private void print(String half, List<Miss> misses, List<Integer> byClass) {
        System.out.printf(Locale.ROOT, "%n  misses, %s half: %s %d, %s %d, %s %d%n", half, WRONG_SCHEMA, byClass.get(0),
                TRIMMED, byClass.get(1), RANKED_LOW, byClass.get(2));
        for (Miss m : misses) {
            Asked a = m.asked();
            System.out.printf(Locale.ROOT, "    %s [%s] %s%n      gold %s, missing %s; %s%s%n      routed %s; kept %s%n", a.id(),
                    a.schema(), a.question(), m.gold(), m.missing(), m.why(),
                    m.why().equals(WRONG_SCHEMA) ? " (own schema " + (m.ownRank() < 0 ? "not routed" : "routed " + (m.ownRank() + 1)) + ")" : "",
                    m.routed().subList(0, Math.min(3, m.routed().size())), m.kept());
        }
    }
}

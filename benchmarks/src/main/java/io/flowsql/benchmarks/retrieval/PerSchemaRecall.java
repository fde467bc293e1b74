package io.flowsql.benchmarks.retrieval;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recall broken out by the schema each question is about: a warehouse's mean hides a schema the routing loses (BIRD's
 * {@code formula_1}, whose table names collide with Spider's).
 */
final class PerSchemaRecall {
    private final Map<String, double[]> sums = new TreeMap<>();  // questions, table, column, routed

    void add(String schema, double tableRecall, double columnRecall, boolean routed) {
        double[] s = sums.computeIfAbsent(schema, k -> new double[4]);
        s[0]++;
        s[1] += tableRecall;
        s[2] += columnRecall;
        s[3] += routed ? 1 : 0;
    }

    /** One line per schema: its questions, table and column recall, routing top-1. */
    void print() {
        System.out.println("  per schema (questions, table recall, column recall, routing top-1):");
        sums.forEach((schema, s) -> System.out.printf(Locale.ROOT, "    %-32s %4d  %.3f  %.3f  %.3f%n", schema, (int) s[0],
                s[1] / s[0], s[2] / s[0], s[3] / s[0]));
    }
}

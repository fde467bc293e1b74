package io.flowsql.benchmarks.learning;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The SQL-shape overlap of the few-shot work (docs/AGENTS.md "Dynamic few-shot"): the Jaccard overlap of the clause and
 * aggregate keywords two queries use, so an example "of the same shape" scores high whatever its tables.
 */
final class SqlShape {
    private static final List<String> WORDS = List.of("COUNT", "GROUP BY", "ORDER BY", "JOIN", "WHERE", "LIMIT",
            "HAVING", "INTERSECT", "UNION", "EXCEPT", "NOT IN", "AVG", "MAX", "MIN", "SUM", "DISTINCT", "LIKE");

    private SqlShape() {}

    static double overlap(String a, String b) {
        Set<String> x = shape(a);
        Set<String> y = shape(b);
        if (x.isEmpty() && y.isEmpty()) {
            return 1;
        }
        Set<String> union = new HashSet<>(x);
        union.addAll(y);
        return (double) x.stream().filter(y::contains).count() / union.size();
    }

    private static Set<String> shape(String sql) {
        String upper = sql == null ? "" : sql.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        Set<String> out = new HashSet<>();
        WORDS.stream().filter(upper::contains).forEach(out::add);
        return out;
    }
}

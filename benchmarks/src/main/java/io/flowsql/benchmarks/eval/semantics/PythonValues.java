package io.flowsql.benchmarks.eval.semantics;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Result rows compared the way the official Python evaluators compare what {@code sqlite3} returned: a value equals
 * another exactly when Python's {@code ==} says so (integer 1 equals real 1.0, reals are compared exactly with no
 * rounding, text never equals a number, bytes never equal text, None equals None), and rows are tuples of such values.
 */
public final class PythonValues {
    private PythonValues() {}

    /** A key per value such that two keys are equal exactly when Python's {@code ==} holds for the values. */
    public static String key(Object value) {
        if (value == null) {
            return "N";
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return "f" + d;
            }
            return "n" + new BigDecimal(d).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Number number) {
            return "n" + new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return "b" + HexFormat.of().formatHex(bytes);
        }
        return "s" + value;
    }

    /** Each row as a list of value keys (a Python tuple). */
    public static List<List<String>> rows(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<String> keys = new ArrayList<>(row.size());
            row.forEach(v -> keys.add(key(v)));
            out.add(keys);
        }
        return out;
    }

    /** {@code set(a) == set(b)} over row tuples: duplicates and order ignored, column order kept (BIRD, MMSQL). */
    public static boolean sameSet(List<List<Object>> a, List<List<Object>> b) {
        return new java.util.HashSet<>(rows(a)).equals(new java.util.HashSet<>(rows(b)));
    }

    /** {@code a == b} over lists of row tuples: same rows in the same order, column order kept (MMSQL with ORDER BY). */
    public static boolean sameList(List<List<Object>> a, List<List<Object>> b) {
        return rows(a).equals(rows(b));
    }

    /**
     * The test-suite evaluator's {@code result_eq}: two empty results are equal whatever their columns; otherwise the row
     * counts and column counts must agree and some permutation of the predicted columns must make the results equal,
     * as lists when order matters and as multisets otherwise.
     */
    public static boolean testSuiteEqual(List<List<Object>> gold, List<List<Object>> pred, boolean orderMatters) {
        if (gold.isEmpty() && pred.isEmpty()) {
            return true;
        }
        if (gold.size() != pred.size()) {
            return false;
        }
        int width = gold.get(0).size();
        if (pred.get(0).size() != width) {
            return false;
        }
        List<List<String>> g = rows(gold);
        List<List<String>> p = rows(pred);
        List<List<Integer>> candidates = new ArrayList<>();
        for (int gc = 0; gc < width; gc++) {
            List<String> goldColumn = sortedColumn(g, gc);
            List<Integer> fits = new ArrayList<>();
            for (int pc = 0; pc < width; pc++) {
                if (goldColumn.equals(sortedColumn(p, pc))) {
                    fits.add(pc);
                }
            }
            if (fits.isEmpty()) {
                return false;
            }
            candidates.add(fits);
        }
        Map<List<String>, Integer> goldBag = orderMatters ? null : bag(g);
        return tryPermutations(candidates, new int[width], new boolean[width], 0, g, p, orderMatters, goldBag, new int[]{0});
    }

    /** Column permutations tried before giving up on a very wide result with many identical columns. */
    static final int MAX_PERMUTATIONS = 100_000;

    private static boolean tryPermutations(List<List<Integer>> candidates, int[] perm, boolean[] used, int column,
                                           List<List<String>> g, List<List<String>> p, boolean ordered,
                                           Map<List<String>, Integer> goldBag, int[] tried) {
        if (column == perm.length) {
            if (++tried[0] > MAX_PERMUTATIONS) {
                return false;
            }
            List<List<String>> permuted = new ArrayList<>(p.size());
            for (List<String> row : p) {
                List<String> r = new ArrayList<>(perm.length);
                for (int c : perm) {
                    r.add(row.get(c));
                }
                permuted.add(r);
            }
            return ordered ? g.equals(permuted) : goldBag.equals(bag(permuted));
        }
        for (int pc : candidates.get(column)) {
            if (!used[pc]) {
                used[pc] = true;
                perm[column] = pc;
                if (tryPermutations(candidates, perm, used, column + 1, g, p, ordered, goldBag, tried)) {
                    return true;
                }
                used[pc] = false;
            }
        }
        return false;
    }

    private static List<String> sortedColumn(List<List<String>> rows, int column) {
        String[] values = new String[rows.size()];
        for (int r = 0; r < values.length; r++) {
            values[r] = rows.get(r).get(column);
        }
        Arrays.sort(values);
        return Arrays.asList(values);
    }

    private static Map<List<String>, Integer> bag(List<List<String>> rows) {
        Map<List<String>, Integer> bag = new HashMap<>();
        rows.forEach(r -> bag.merge(r, 1, Integer::sum));
        return bag;
    }
}

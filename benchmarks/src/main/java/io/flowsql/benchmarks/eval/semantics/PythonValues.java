package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.ComparisonBudgetExceeded;
import io.flowsql.sql.compare.Match;

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
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return "n" + ((Number) value).longValue();
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
        return testSuiteMatch(gold, pred, orderMatters, null).equal();
    }

    /**
     * {@link #testSuiteEqual} within a statement's budget (null: unbounded): the permutations to try are planned
     * before any is tried, and work past the budget's cap, more than {@link #MAX_PERMUTATIONS} permutations, or the
     * deadline passing make the verdict undecided ("comparison budget exceeded") instead of a hang or a silent "wrong".
     */
    public static Match testSuiteMatch(List<List<Object>> gold, List<List<Object>> pred, boolean orderMatters,
                                       StatementBudget budget) {
        if (gold.isEmpty() && pred.isEmpty()) {
            return Match.EQUAL;
        }
        if (gold.size() != pred.size()) {
            return Match.DIFFERENT;
        }
        int width = gold.get(0).size();
        if (pred.get(0).size() != width) {
            return Match.DIFFERENT;
        }
        if (budget != null && budget.expired()) {
            return outOfTime(budget);
        }
        List<List<String>> g = rows(gold);
        List<List<String>> p = rows(pred);
        List<List<String>> predColumns = new ArrayList<>(width);
        for (int pc = 0; pc < width; pc++) {
            predColumns.add(sortedColumn(p, pc));
        }
        List<List<Integer>> candidates = new ArrayList<>();
        for (int gc = 0; gc < width; gc++) {
            if (budget != null && budget.expired()) {
                return outOfTime(budget);
            }
            List<String> goldColumn = sortedColumn(g, gc);
            List<Integer> fits = new ArrayList<>();
            for (int pc = 0; pc < width; pc++) {
                if (goldColumn.equals(predColumns.get(pc))) {
                    fits.add(pc);
                }
            }
            if (fits.isEmpty()) {
                return Match.DIFFERENT;
            }
            candidates.add(fits);
        }
        long permutations = 1;
        for (List<Integer> fits : candidates) {
            permutations = Math.min((long) MAX_PERMUTATIONS + 1, permutations * fits.size());
        }
        long cells = (long) gold.size() * width;
        if (budget != null && (permutations > MAX_PERMUTATIONS || permutations * cells > budget.maxCompareWork())) {
            return Match.undecided(ComparisonBudgetExceeded.VERDICT + ": up to " + (permutations > MAX_PERMUTATIONS
                    ? "more than " + MAX_PERMUTATIONS : String.valueOf(permutations)) + " column permutations of "
                    + gold.size() + " rows × " + width + " columns to try, more than the " + budget.maxCompareWork()
                    + " value comparisons allowed");
        }
        Map<List<String>, Integer> goldBag = orderMatters ? null : bag(g);
        int[] tried = {0};
        boolean equal = tryPermutations(candidates, new int[width], new boolean[width], 0, g, p, orderMatters, goldBag, tried,
                budget);
        if (!equal && budget != null && budget.expired()) {
            return outOfTime(budget);
        }
        return Match.of(equal);
    }

    private static Match outOfTime(StatementBudget budget) {
        return Match.undecided(ComparisonBudgetExceeded.VERDICT + ": the statement's time budget of "
                + budget.timeoutMillis() + " ms ran out");
    }

    /** Column permutations tried before giving up on a very wide result with many identical columns. */
    static final int MAX_PERMUTATIONS = 100_000;

    private static boolean tryPermutations(List<List<Integer>> candidates, int[] perm, boolean[] used, int column,
                                           List<List<String>> g, List<List<String>> p, boolean ordered,
                                           Map<List<String>, Integer> goldBag, int[] tried, StatementBudget budget) {
        if (column == perm.length) {
            if (++tried[0] > MAX_PERMUTATIONS || (budget != null && budget.expired())) {
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
                if (tryPermutations(candidates, perm, used, column + 1, g, p, ordered, goldBag, tried, budget)) {
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

package io.flowsql.sql.compare;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

/**
 * A canonical key of a result under a comparison mode: two results get the same key exactly when
 * {@link ResultComparator} calls them equal, so the vote can group candidates by key. With a {@link StatementBudget}
 * the work (column orders × values encoded) and the time are bounded: past either it throws
 * {@link ComparisonBudgetExceeded} instead of running on.
 */
public final class ResultFingerprint {

    /** Above this many column orders to try, columns are ordered by their content alone (see docs). */
    static final int MAX_COLUMN_ORDERS = 5_040;
    private static final char VALUE_SEPARATOR = '\u001f';
    private static final char ROW_SEPARATOR = '\u001e';

    private ResultFingerprint() {}

    /** The key for unordered comparison; null for a failed execution (it equals nothing). */
    public static String of(ExecutionResult result, ComparisonMode mode) {
        return of(result, mode, false);
    }

    /** The key; {@code ordered} only matters for {@link ComparisonMode#SPIDER_TEST_SUITE}. */
    public static String of(ExecutionResult result, ComparisonMode mode, boolean ordered) {
        return of(result, mode, ordered, null);
    }

    /**
     * The key, computed within the statement's budget (null: unbounded).
     *
     * @throws ComparisonBudgetExceeded when the comparison would pass the budget's work cap or time
     */
    public static String of(ExecutionResult result, ComparisonMode mode, boolean ordered, StatementBudget budget) {
        if (result == null || !result.ok()) {
            return null;
        }
        CompareWork work = new CompareWork(budget);
        String canonical = switch (mode) {
            case BIRD_SET -> "bird:" + birdSet(tokens(result.rows(), work), work);
            case SPIDER_TEST_SUITE -> "suite:" + (ordered ? "ordered:" : "bag:") + testSuite(tokens(result.rows(), work), ordered, work);
        };
        return sha256(canonical + (result.truncated() ? "|truncated" : ""));
    }

    private static List<String[]> tokens(List<List<Object>> rows, CompareWork work) {
        work.plan(cells(rows), "reading the result");
        List<String[]> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            String[] t = new String[row.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = CanonicalValue.of(row.get(i));
                work.tick();
            }
            out.add(t);
        }
        return out;
    }

    private static long cells(List<List<Object>> rows) {
        long n = 0;
        for (List<Object> row : rows) {
            n += row.size();
        }
        return n;
    }

    private static String birdSet(List<String[]> rows, CompareWork work) {
        TreeSet<String> distinct = new TreeSet<>();
        for (String[] row : rows) {
            distinct.add(String.join(String.valueOf(VALUE_SEPARATOR), row));
            work.tick();
        }
        return String.join(String.valueOf(ROW_SEPARATOR), distinct);
    }

    /** The smallest encoding over the column orders that could map one result onto another. */
    private static String testSuite(List<String[]> rows, boolean ordered, CompareWork work) {
        if (rows.isEmpty()) {
            return "empty";
        }
        int width = rows.get(0).length;
        String[] signature = new String[width];
        for (int c = 0; c < width; c++) {
            String[] column = new String[rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                column[r] = rows.get(r)[c];
                work.tick();
            }
            Arrays.sort(column);
            signature[c] = String.join(String.valueOf(VALUE_SEPARATOR), column);
        }
        Integer[] byContent = new Integer[width];
        for (int c = 0; c < width; c++) {
            byContent[c] = c;
        }
        Arrays.sort(byContent, Comparator.comparing((Integer c) -> signature[c]));
        List<int[]> orders = ColumnOrders.withinTies(byContent, signature, MAX_COLUMN_ORDERS);
        long cells = (long) rows.size() * width;
        work.plan(orders.size() > Long.MAX_VALUE / Math.max(1, cells) ? -1 : orders.size() * cells,
                "trying " + orders.size() + " column orders of " + rows.size() + " rows × " + width + " columns");
        String best = null;
        for (int[] order : orders) {
            String encoded = encode(rows, order, ordered, work);
            if (best == null || encoded.compareTo(best) < 0) {
                best = encoded;
            }
        }
        return width + ":" + best;
    }

    private static String encode(List<String[]> rows, int[] order, boolean ordered, CompareWork work) {
        List<String> lines = new ArrayList<>(rows.size());
        StringBuilder line = new StringBuilder();
        for (String[] row : rows) {
            line.setLength(0);
            for (int c : order) {
                line.append(row[c]).append(VALUE_SEPARATOR);
                work.tick();
            }
            lines.add(line.toString());
        }
        if (!ordered) {
            lines.sort(null);
        }
        return String.join(String.valueOf(ROW_SEPARATOR), lines);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }
}

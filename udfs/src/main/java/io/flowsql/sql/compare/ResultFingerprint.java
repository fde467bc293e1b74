package io.flowsql.sql.compare;

import io.flowsql.sql.ExecutionResult;
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
 * {@link ResultComparator} calls them equal, so the vote can group candidates by key.
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
        if (result == null || !result.ok()) {
            return null;
        }
        String canonical = switch (mode) {
            case BIRD_SET -> "bird:" + birdSet(tokens(result.rows()));
            case SPIDER_TEST_SUITE -> "suite:" + (ordered ? "ordered:" : "bag:") + testSuite(tokens(result.rows()), ordered);
        };
        return sha256(canonical + (result.truncated() ? "|truncated" : ""));
    }

    private static List<String[]> tokens(List<List<Object>> rows) {
        List<String[]> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            String[] t = new String[row.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = CanonicalValue.of(row.get(i));
            }
            out.add(t);
        }
        return out;
    }

    private static String birdSet(List<String[]> rows) {
        TreeSet<String> distinct = new TreeSet<>();
        for (String[] row : rows) {
            distinct.add(String.join(String.valueOf(VALUE_SEPARATOR), row));
        }
        return String.join(String.valueOf(ROW_SEPARATOR), distinct);
    }

    /** The smallest encoding over the column orders that could map one result onto another. */
    private static String testSuite(List<String[]> rows, boolean ordered) {
        if (rows.isEmpty()) {
            return "empty";
        }
        int width = rows.get(0).length;
        String[] signature = new String[width];
        for (int c = 0; c < width; c++) {
            String[] column = new String[rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                column[r] = rows.get(r)[c];
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
        String best = null;
        for (int[] order : orders) {
            String encoded = encode(rows, order, ordered);
            if (best == null || encoded.compareTo(best) < 0) {
                best = encoded;
            }
        }
        return width + ":" + best;
    }

    private static String encode(List<String[]> rows, int[] order, boolean ordered) {
        List<String> lines = new ArrayList<>(rows.size());
        StringBuilder line = new StringBuilder();
        for (String[] row : rows) {
            line.setLength(0);
            for (int c : order) {
                line.append(row[c]).append(VALUE_SEPARATOR);
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

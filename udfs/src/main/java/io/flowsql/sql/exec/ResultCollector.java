package io.flowsql.sql.exec;

import io.flowsql.sql.StatementBudget;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a result set up to the row cap and the byte cap, counting each value's size as the comparison encodes it
 * (text as UTF-8, a blob as hex: twice its length), and stops when the statement's budget runs out; values are
 * normalised to Long, Double, String, byte[] or null.
 */
final class ResultCollector {

    /** What was read; {@code outOfTime} when the budget ran out while reading (the rows are then incomplete). */
    record Collected(List<String> columns, List<List<Object>> rows, boolean truncated, long encodedBytes, boolean outOfTime) {}

    private static final int ROWS_BETWEEN_CLOCK_CHECKS = 256;

    private final int maxRows;
    private final long maxBytes;

    ResultCollector(int maxRows, long maxBytes) {
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
    }

    Collected collect(ResultSet resultSet, StatementBudget budget) throws SQLException {
        ResultSetMetaData meta = resultSet.getMetaData();
        int width = meta.getColumnCount();
        List<String> columns = new ArrayList<>(width);
        for (int i = 1; i <= width; i++) {
            columns.add(meta.getColumnLabel(i));
        }
        List<List<Object>> rows = new ArrayList<>();
        long bytes = 0;
        while (resultSet.next()) {
            if (rows.size() >= maxRows) {
                return new Collected(columns, rows, true, bytes, false);
            }
            if (rows.size() % ROWS_BETWEEN_CLOCK_CHECKS == 0 && budget.expired()) {
                return new Collected(columns, rows, true, bytes, true);
            }
            List<Object> row = new ArrayList<>(width);
            long rowBytes = 0;
            for (int i = 1; i <= width; i++) {
                Object value = normalise(resultSet.getObject(i));
                rowBytes += encodedSize(value);
                row.add(value);
            }
            if (bytes + rowBytes > maxBytes) {
                return new Collected(columns, rows, true, bytes + rowBytes, false);
            }
            bytes += rowBytes;
            rows.add(row);
        }
        return new Collected(columns, rows, false, bytes, false);
    }

    /**
     * Long, Double, String, byte[] or null, whatever the engine returned: exact decimals and big integers become Long
     * when integral and in range, else Double; booleans 1/0 (as SQLite stores them); dates, times and timestamps the
     * text SQLite's date functions write ({@link TemporalText}); UUIDs, intervals, arrays and other engine types their
     * text.
     */
    static Object normalise(Object value) {
        if (value == null || value instanceof Long || value instanceof Double || value instanceof String
                || value instanceof byte[]) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            // its shortest decimal (a real 1.1 is 1.1, not 1.100000023841858)
            return Double.parseDouble(Float.toString(f));
        }
        if (value instanceof java.math.BigDecimal d) {
            java.math.BigDecimal stripped = d.stripTrailingZeros();
            if (stripped.scale() <= 0 && stripped.compareTo(LONG_MAX) <= 0 && stripped.compareTo(LONG_MIN) >= 0) {
                return stripped.longValueExact();
            }
            return d.doubleValue();
        }
        if (value instanceof java.math.BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        if (value instanceof java.sql.Array array) {
            try {
                Object items = array.getArray();
                return items instanceof Object[] objects ? java.util.Arrays.toString(objects) : String.valueOf(items);
            } catch (SQLException e) {
                return String.valueOf(array);
            }
        }
        return TemporalText.of(value).orElseGet(() -> String.valueOf(value));
    }

    private static final java.math.BigDecimal LONG_MAX = java.math.BigDecimal.valueOf(Long.MAX_VALUE);
    private static final java.math.BigDecimal LONG_MIN = java.math.BigDecimal.valueOf(Long.MIN_VALUE);

    /** Bytes of the value as the comparison encodes it (CanonicalValue), plus one separator. */
    static long encodedSize(Object value) {
        if (value instanceof String s) {
            return 2 + utf8Length(s);
        }
        if (value instanceof byte[] b) {
            return 2 + 2L * b.length;
        }
        if (value instanceof Long l) {
            return 3 + (l == Long.MIN_VALUE ? 19 : digits(Math.abs(l)));
        }
        // null, or a real: at most a sign, 17 significant digits, a point and an exponent
        return value == null ? 5 : 28;
    }

    private static int digits(long n) {
        int d = 1;
        while (n >= 10) {
            n /= 10;
            d++;
        }
        return d;
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}

package io.flowsql.sql.exec;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Reads a result set up to the row and byte caps, normalising values to Long, Double, String, byte[] or null. */
final class ResultCollector {

    /** What was read. */
    record Collected(List<String> columns, List<List<Object>> rows, boolean truncated) {}

    private final int maxRows;
    private final long maxBytes;

    ResultCollector(int maxRows, long maxBytes) {
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
    }

    Collected collect(ResultSet resultSet) throws SQLException {
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
                return new Collected(columns, rows, true);
            }
            List<Object> row = new ArrayList<>(width);
            long rowBytes = 0;
            for (int i = 1; i <= width; i++) {
                Object value = normalise(resultSet.getObject(i));
                rowBytes += sizeOf(value);
                row.add(value);
            }
            if (bytes + rowBytes > maxBytes) {
                return new Collected(columns, rows, true);
            }
            bytes += rowBytes;
            rows.add(row);
        }
        return new Collected(columns, rows, false);
    }

    private static Object normalise(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        return value;
    }

    private static long sizeOf(Object value) {
        if (value instanceof String s) {
            return s.length();
        }
        if (value instanceof byte[] b) {
            return b.length;
        }
        return 8;
    }
}

package io.flowsql.sql;

import java.util.List;

/**
 * Columns and rows of one execution (values as SQLite returned them: Long, Double, String, byte[] or
 * null), the full row count when known, whether rows were cut by a cap, elapsed time, and the error
 * when it failed.
 */
public record ExecutionResult(
        List<String> columns,
        List<List<Object>> rows,
        int rowCount,
        boolean truncated,
        long elapsedMicros,
        SqlError error) {

    public ExecutionResult {
        columns = columns == null ? List.of() : List.copyOf(columns);
        rows = rows == null ? List.of() : rows.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
    }

    public static ExecutionResult failed(SqlError error, long elapsedMicros) {
        return new ExecutionResult(List.of(), List.of(), 0, false, elapsedMicros, error);
    }

    public boolean ok() {
        return error == null;
    }

    public boolean isEmpty() {
        return ok() && rows.isEmpty();
    }
}

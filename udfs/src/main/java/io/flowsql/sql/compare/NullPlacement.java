package io.flowsql.sql.compare;

import io.flowsql.sql.ExecutionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where an engine sorts NULL: SQLite puts NULL first in ascending and last in descending order, PostgreSQL the
 * reverse, DuckDB last in both. The same sorted query therefore returns its rows with NULL at the other end on
 * another engine. This gives a sorted result's two readings: the rows holding a NULL moved (in their order) to the
 * front, or to the back; comparing either with the other engine's result removes the engines' difference, nothing
 * else.
 */
public final class NullPlacement {
    private NullPlacement() {}

    /** The result with its rows holding a NULL first (true) or last (false), other rows in their order. */
    public static ExecutionResult moved(ExecutionResult result, boolean nullsFirst) {
        if (result == null || !result.ok()) {
            return result;
        }
        List<List<Object>> withNull = new ArrayList<>();
        List<List<Object>> without = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            (row.stream().anyMatch(Objects::isNull) ? withNull : without).add(row);
        }
        if (withNull.isEmpty()) {
            return result;
        }
        List<List<Object>> rows = new ArrayList<>(result.rows().size());
        rows.addAll(nullsFirst ? withNull : without);
        rows.addAll(nullsFirst ? without : withNull);
        return new ExecutionResult(result.columns(), rows, result.rowCount(), result.truncated(), result.elapsedMicros(), null);
    }
}

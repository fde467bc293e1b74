package io.flowsql.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.access.AccessPolicies;
import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import io.flowsql.events.EventJson;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.server.DatabaseParts;

import java.util.List;

/**
 * Runs SQL a person typed exactly as the job runs a model's: through the door of the database for the person's tenant
 * ({@link DataDoor}: the tenant's access policy, its table gate and error redaction), the project's statement guard
 * (one read-only SELECT/WITH) and the safe executor (read-only connection, time limit, row and byte caps) on the job's
 * databases: the SQLite folders and the PostgreSQL/DuckDB databases declared in its options (databases.&lt;id&gt;.*).
 * A database the tenant may not ask answers as one that does not exist.
 */
final class SqlRunner implements AutoCloseable {
    /** Rows sent to the page at most (the row count says how many there were). */
    static final int ROWS_SHOWN = 200;

    private final DataDoors doors;

    SqlRunner(DatabaseRegistry databases, SqlExecutorConfig config, AccessPolicies access) {
        this.doors = new DataDoors(DatabaseParts.executor(databases, config), null, access);
    }

    /** The result as the page shows it: columns, rows as text, row count, truncation, time; or the error's kind and message. */
    ObjectNode run(String dbId, String tenant, String sql) {
        DataDoor door = doors.door(dbId, tenant);
        ExecutionResult result = door.admits() ? door.execute(sql)
                : ExecutionResult.failed(new SqlError(SqlError.Kind.UNKNOWN_DATABASE, "no database named " + dbId), 0);
        ObjectNode out = EventJson.mapper().createObjectNode();
        out.put("elapsed_ms", result.elapsedMicros() / 1000.0);
        if (!result.ok()) {
            SqlError error = result.error();
            out.putObject("error").put("kind", error.kind().name().toLowerCase()).put("message", error.message());
            return out;
        }
        ArrayNode columns = out.putArray("columns");
        result.columns().forEach(columns::add);
        ArrayNode rows = out.putArray("rows");
        List<List<Object>> all = result.rows();
        for (List<Object> row : all.subList(0, Math.min(all.size(), ROWS_SHOWN))) {
            ArrayNode cells = rows.addArray();
            row.forEach(v -> cells.add(text(v)));
        }
        out.put("row_count", Math.max(result.rowCount(), all.size()));
        out.put("truncated", result.truncated() || all.size() > ROWS_SHOWN);
        return out;
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] bytes) {
            return "<blob, " + bytes.length + " bytes>";
        }
        return String.valueOf(value);
    }

    @Override
    public void close() {
        doors.close();
    }
}

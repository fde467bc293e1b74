package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.sql.ExecutionResult;
import java.util.stream.Collectors;

/** One line that tells a model what an SQL returned (its error, or its row count and first rows), as SQLFixAgent feeds execution back into review and repair. */
final class ExecutionSummary {
    private static final int SHOWN_ROWS = 3;

    private ExecutionSummary() {}

    static String of(ExecutionResult result) {
        if (!result.ok()) {
            return "error: " + SchemaContext.oneLine(result.error().toString());
        }
        if (result.rows().isEmpty()) {
            return "no rows";
        }
        String rows = result.rows().stream().limit(SHOWN_ROWS)
                .map(row -> row.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")")))
                .collect(Collectors.joining(" "));
        int count = Math.max(result.rowCount(), result.rows().size());
        return count + (count == 1 ? " row: " : " rows, first: ") + SchemaContext.oneLine(rows);
    }
}

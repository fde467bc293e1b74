package io.flowsql.agents.magsql;

import io.flowsql.sql.ExecutionResult;
import java.util.List;
import java.util.Optional;

/** MAG-SQL §3.4: the execution outcomes that send a sub-SQL back to the refiner (an error, no rows, NULLs in the answer). */
final class ResultProblem {
    private ResultProblem() {}

    /** A description of what looks wrong, fit for the refiner prompt; empty when the result looks fine. */
    static Optional<String> of(ExecutionResult result) {
        if (!result.ok()) {
            return Optional.of("the query failed: " + result.error().message());
        }
        if (result.rows().isEmpty()) {
            return Optional.of("the query returned no rows");
        }
        for (int column = 0; column < result.columns().size(); column++) {
            for (List<Object> row : result.rows()) {
                if (column < row.size() && row.get(column) == null) {
                    return Optional.of("the result contains NULL in column " + result.columns().get(column));
                }
            }
        }
        return Optional.empty();
    }

    /** The first rows as one line, to show the refiner. */
    static String preview(ExecutionResult result, int rows) {
        if (!result.ok()) {
            return "(error)";
        }
        if (result.rows().isEmpty()) {
            return "(no rows)";
        }
        StringBuilder out = new StringBuilder(String.join(" | ", result.columns()));
        result.rows().stream().limit(rows).forEach(row -> {
            out.append(" ; ");
            out.append(String.join(" | ", row.stream().map(String::valueOf).toList()));
        });
        return out.toString();
    }
}

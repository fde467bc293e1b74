package io.flowsql.agents.magsql;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.engine.StatementFault;
import java.util.List;
import java.util.Optional;

/**
 * MAG-SQL §3.4: the execution outcomes that send a sub-SQL back to the refiner. As the authors' code
 * ({@code Refiner._is_need_refine}) decides: an error, no rows, or — only when there is more than one row — NULL and
 * non-NULL values mixed in the first five rows (a single row, or rows of nothing but NULL, are taken as the answer).
 * {@code anyNull} is our earlier, stricter rule: any NULL in any row, a single row too.
 */
record ResultProblem(Kind kind, String text) {
    /** What went wrong, as far as the refiner's prompt choice cares. */
    enum Kind { NO_SUCH_COLUMN, FAILED, EMPTY, NULLS }

    /** The rows the authors' refiner looks at. */
    static final int ROWS_SEEN = 5;
    /**
     * What looks wrong, fit for the refiner prompt; empty when the result looks fine. An error is read in the wording
     * of {@code engine}, the engine the sub-SQL ran on: a column the schema lacks is {@link Kind#NO_SUCH_COLUMN}.
     */
    static Optional<ResultProblem> of(ExecutionResult result, boolean anyNull, DatabaseEngine engine) {
        if (!result.ok()) {
            String message = result.error().message();
            Kind kind = engine.profile().fault(result.error().sqlState(), message) == StatementFault.UNKNOWN_COLUMN ? Kind.NO_SUCH_COLUMN : Kind.FAILED;
            return Optional.of(new ResultProblem(kind, "the query failed: " + message));
        }
        if (result.rows().isEmpty()) {
            return Optional.of(new ResultProblem(Kind.EMPTY, "the query returned no rows"));
        }
        Optional<String> nullColumn = anyNull ? anyNull(result) : mixedNulls(result);
        return nullColumn.map(c -> new ResultProblem(Kind.NULLS, "the result contains NULL in column " + c));
    }

    private static Optional<String> anyNull(ExecutionResult result) {
        for (List<Object> row : result.rows()) {
            for (int column = 0; column < row.size() && column < result.columns().size(); column++) {
                if (row.get(column) == null) {
                    return Optional.of(result.columns().get(column));
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> mixedNulls(ExecutionResult result) {
        if (result.rows().size() == 1) {
            return Optional.empty();
        }
        String firstNull = null;
        boolean someValue = false;
        for (List<Object> row : result.rows().subList(0, Math.min(ROWS_SEEN, result.rows().size()))) {
            for (int column = 0; column < row.size() && column < result.columns().size(); column++) {
                if (row.get(column) == null) {
                    firstNull = firstNull == null ? result.columns().get(column) : firstNull;
                } else {
                    someValue = true;
                }
            }
        }
        return firstNull != null && someValue ? Optional.of(firstNull) : Optional.empty();
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

package io.flowsql.events;

import java.util.List;
import java.util.regex.Pattern;

/** What a result column holds, read from its cells as text (an answer's preview carries no SQL types). */
enum ColumnKind {
    NUMBER, DATE, TEXT, EMPTY;

    private static final Pattern NUMBER_TEXT = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");
    /** ISO dates and timestamps, and year-month ({@code 2024-03}, {@code 2024-03-01 10:00:00}, {@code 2024/03/01}). */
    private static final Pattern DATE_TEXT = Pattern.compile(
            "\\d{4}[-/]\\d{1,2}([-/]\\d{1,2})?([ T]\\d{1,2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?(Z|[+-]\\d{2}:?\\d{2})?");

    /** The kind of column {@code index} over {@code rows}: the narrowest kind every non-empty cell fits. */
    static ColumnKind of(List<List<String>> rows, int index) {
        boolean any = false;
        boolean numbers = true;
        boolean dates = true;
        for (List<String> row : rows) {
            String cell = index < row.size() ? row.get(index) : null;
            if (cell == null || cell.isBlank() || cell.equalsIgnoreCase("null")) {
                continue;
            }
            any = true;
            String text = cell.strip();
            numbers &= NUMBER_TEXT.matcher(text).matches();
            dates &= DATE_TEXT.matcher(text).matches();
        }
        if (!any) {
            return EMPTY;
        }
        return numbers ? NUMBER : dates ? DATE : TEXT;
    }
}

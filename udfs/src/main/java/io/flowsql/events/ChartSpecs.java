package io.flowsql.events;


import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The chart an answer's result suggests, from its columns' kinds and its shape alone (no model, as Vanna and WrenAI
 * suggest one): a date or ordered column with measures is a {@code line}; a category with measures is a {@code bar};
 * a single value, id-like axes or no measure at all are {@code none}. A second category with one measure becomes the
 * series.
 */
public final class ChartSpecs {
    /** Names of columns that order time (a year as a number is still an axis, not a measure). */
    private static final Pattern TEMPORAL_NAME = Pattern.compile(
            "(.*[_ ])?(year|month|week|quarter|day|date|hour|period)s?|year.*");
    /** {@code id}, {@code singer_id}, {@code Singer_ID}, {@code StuID}: identifiers, neither axis nor measure. */
    private static final Pattern ID_NAME = Pattern.compile("(?i)id|.*_id|.*[a-z](ID|Id)");

    private ChartSpecs() {}

    /** The chart for an answer's result preview; {@code none} when there is no result. */
    public static ChartSpec of(ResultPreview result) {
        return result == null ? ChartSpec.none() : of(result.columns, result.rows);
    }

    /** The chart for a result of these columns and rows (cells as text). */
    public static ChartSpec of(List<String> columns, List<List<String>> rows) {
        if (columns == null || rows == null || rows.size() < 2 || columns.size() < 2) {
            return ChartSpec.none();   // a single value or a single list draws no chart
        }
        List<Integer> measures = new ArrayList<>();
        List<Integer> categories = new ArrayList<>();
        Integer time = null;
        for (int i = 0; i < columns.size(); i++) {
            String name = columns.get(i) == null ? "" : columns.get(i).strip();
            ColumnKind kind = ColumnKind.of(rows, i);
            if (kind == ColumnKind.EMPTY) {
                continue;
            }
            if (ID_NAME.matcher(name).matches()) {
                continue;   // an identifier is neither an axis nor a measure
            }
            if (kind == ColumnKind.DATE || (kind == ColumnKind.NUMBER && temporal(name))) {
                if (time == null) {
                    time = i;
                } else {
                    categories.add(i);
                }
            } else if (kind == ColumnKind.NUMBER) {
                measures.add(i);
            } else {
                categories.add(i);
            }
        }
        if (measures.isEmpty()) {
            return ChartSpec.none();
        }
        if (time == null && categories.isEmpty() && measures.size() > 1 && increasing(rows, measures.get(0))) {
            time = measures.remove(0);   // an ordered first column (a rank, a bucket) is the axis of the others
        }
        String type;
        Integer x;
        if (time != null) {
            type = ChartSpec.LINE;
            x = time;
        } else if (!categories.isEmpty()) {
            type = ChartSpec.BAR;
            x = categories.remove(0);
        } else {
            return ChartSpec.none();   // measures alone (or beside an id): nothing to put on the axis
        }
        String series = measures.size() == 1 && !categories.isEmpty() ? columns.get(categories.get(0)) : null;
        List<String> y = measures.stream().map(columns::get).toList();
        return new ChartSpec(type, columns.get(x), y, series);
    }

    private static boolean temporal(String name) {
        return TEMPORAL_NAME.matcher(name.toLowerCase(Locale.ROOT)).matches();
    }

    private static boolean increasing(List<List<String>> rows, int column) {
        double previous = Double.NEGATIVE_INFINITY;
        for (List<String> row : rows) {
            try {
                double v = Double.parseDouble(row.get(column).strip());
                if (v <= previous) {
                    return false;
                }
                previous = v;
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

}

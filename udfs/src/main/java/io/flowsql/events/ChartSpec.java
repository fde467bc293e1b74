package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * How an answer's result can be drawn (answers schema {@code chart}), so a reader need not guess which column is the
 * axis: {@code bar} (categories on x), {@code line} (a date or ordered column on x) or {@code none}; {@code y} names
 * the measure columns, {@code series} the column that splits them into one bar group or line per value.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ChartSpec {
    public static final String BAR = "bar";
    public static final String LINE = "line";
    public static final String NONE = "none";

    public String type;
    public String x;
    public List<String> y;
    public String series;

    public ChartSpec() {}

    public ChartSpec(String type, String x, List<String> y, String series) {
        this.type = type;
        this.x = x;
        this.y = y;
        this.series = series;
    }

    public static ChartSpec none() {
        return new ChartSpec(NONE, null, null, null);
    }

    @Override
    public String toString() {
        return type + (x == null ? "" : " x=" + x) + (y == null ? "" : " y=" + y) + (series == null ? "" : " series=" + series);
    }
}

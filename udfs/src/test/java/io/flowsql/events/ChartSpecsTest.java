package io.flowsql.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChartSpecsTest {

    @Test
    void aCategoryWithACountIsABar() {
        ChartSpec chart = ChartSpecs.of(List.of("Country", "count(*)"),
                List.of(List.of("France", "4"), List.of("Netherlands", "1"), List.of("United States", "1")));
        assertThat(chart.type).isEqualTo(ChartSpec.BAR);
        assertThat(chart.x).isEqualTo("Country");
        assertThat(chart.y).containsExactly("count(*)");
        assertThat(chart.series).isNull();
    }

    @Test
    void aDateColumnIsTheAxisOfALine() {
        ChartSpec chart = ChartSpecs.of(List.of("total", "order_date"),
                List.of(List.of("10.5", "2024-01-01"), List.of("12", "2024-01-02"), List.of("9", "2024-01-03 10:00:00")));
        assertThat(chart.type).isEqualTo(ChartSpec.LINE);
        assertThat(chart.x).isEqualTo("order_date");
        assertThat(chart.y).containsExactly("total");
    }

    @Test
    void aYearAsANumberIsAnOrderedAxisNotAMeasure() {
        ChartSpec chart = ChartSpecs.of(List.of("Year", "concerts"),
                List.of(List.of("2014", "3"), List.of("2015", "5")));
        assertThat(chart.type).isEqualTo(ChartSpec.LINE);
        assertThat(chart.x).isEqualTo("Year");
        assertThat(chart.y).containsExactly("concerts");
    }

    @Test
    void anIncreasingFirstNumberIsTheAxisOfTheOthers() {
        ChartSpec chart = ChartSpecs.of(List.of("Age", "singers", "avg_sales"),
                List.of(List.of("25", "2", "1.5"), List.of("30", "1", "2.0"), List.of("41", "4", "0.5")));
        assertThat(chart.type).isEqualTo(ChartSpec.LINE);
        assertThat(chart.x).isEqualTo("Age");
        assertThat(chart.y).containsExactly("singers", "avg_sales");
    }

    @Test
    void aSecondCategoryWithOneMeasureIsTheSeries() {
        ChartSpec chart = ChartSpecs.of(List.of("Country", "Gender", "n"),
                List.of(List.of("France", "F", "2"), List.of("France", "M", "2"), List.of("Netherlands", "F", "1")));
        assertThat(chart.type).isEqualTo(ChartSpec.BAR);
        assertThat(chart.x).isEqualTo("Country");
        assertThat(chart.y).containsExactly("n");
        assertThat(chart.series).isEqualTo("Gender");
    }

    @Test
    void idLikeColumnsAreNeitherAxisNorMeasure() {
        assertThat(ChartSpecs.of(List.of("Singer_ID", "Age"),
                List.of(List.of("1", "52"), List.of("2", "32"), List.of("3", "29"))).type).isEqualTo(ChartSpec.NONE);
        assertThat(ChartSpecs.of(List.of("StuID", "PetID"),
                List.of(List.of("1001", "2001"), List.of("1002", "2002"))).type).isEqualTo(ChartSpec.NONE);
        ChartSpec withName = ChartSpecs.of(List.of("id", "Name", "Age"),
                List.of(List.of("1", "Joe", "52"), List.of("2", "Ann", "32")));
        assertThat(withName.type).isEqualTo(ChartSpec.BAR);
        assertThat(withName.x).isEqualTo("Name");
        assertThat(withName.y).containsExactly("Age");
    }

    @Test
    void aSingleValueOrAListWithoutMeasuresDrawsNothing() {
        assertThat(ChartSpecs.of(List.of("count(*)"), List.of(List.of("6"))).type).isEqualTo(ChartSpec.NONE);
        assertThat(ChartSpecs.of(List.of("Country", "n"), List.of(List.of("France", "4"))).type).isEqualTo(ChartSpec.NONE);
        assertThat(ChartSpecs.of(List.of("Name", "Country"),
                List.of(List.of("Joe", "France"), List.of("Ann", "Netherlands"))).type).isEqualTo(ChartSpec.NONE);
        assertThat(ChartSpecs.of(List.of("Name"), List.of(List.of("Joe"), List.of("Ann"))).type).isEqualTo(ChartSpec.NONE);
    }

    @Test
    void nullsDoNotMakeANumberColumnText() {
        ChartSpec chart = ChartSpecs.of(List.of("Country", "avg_age"),
                List.of(List.of("France", "31.5"), java.util.Arrays.asList("Spain", null), List.of("Italy", "NULL")));
        assertThat(chart.type).isEqualTo(ChartSpec.BAR);
        assertThat(chart.y).containsExactly("avg_age");
    }
}

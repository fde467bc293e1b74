package io.flowsql.benchmarks.eval.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;

/** Draws a bar chart with xchart and returns it as a base64 PNG, so the HTML report needs no other file. */
final class ChartImages {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private ChartImages() {}

    /** Bars on an axis from 0 to the data's maximum. */
    static String bars(String title, String xTitle, String yTitle, List<String> labels, List<? extends Number> values) {
        return draw(title, xTitle, yTitle, labels, values, null);
    }

    /** Bars of percentages on a fixed 0–100 % axis, so 66.67 % looks like two thirds and 0 % like nothing. */
    static String percentBars(String title, String xTitle, String yTitle, List<String> labels, List<? extends Number> values) {
        return draw(title, xTitle, yTitle, labels, values, 100.0);
    }

    private static String draw(String title, String xTitle, String yTitle, List<String> labels, List<? extends Number> values,
                               Double max) {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(420).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setYAxisMin(0.0);
        if (max != null) {
            chart.getStyler().setYAxisMax(max);
        }
        // stage names and token ranges are long: upright labels would run into each other, and slanted ones (45°) end
        // under the next bar, so many labels stand vertical, each centred under its own bar (ChartImagesTest)
        chart.getStyler().setXAxisLabelRotation(labels.size() > 5 ? 90 : 0);
        chart.addSeries(yTitle, labels, values);
        try {
            return Base64.getEncoder().encodeToString(BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot draw " + title, e);
        }
    }
}

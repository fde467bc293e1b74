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

    static String bars(String title, String xTitle, String yTitle, List<String> labels, List<? extends Number> values) {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(420).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendVisible(false);
        // stage names and token ranges are long: slanted labels do not run into each other
        chart.getStyler().setXAxisLabelRotation(labels.size() > 5 ? 45 : 0);
        chart.addSeries(yTitle, labels, values);
        try {
            return Base64.getEncoder().encodeToString(BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot draw " + title, e);
        }
    }
}

package org.oooengine.cluster.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;

/** A log-log PNG of join time against selectivity, one series per mode, and the optimizer's estimate for auto. */
public final class SweepPlot {
    private SweepPlot() {
    }

    public static void write(ResultTable table, String title, Path png) {
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title)
                .xAxisTitle("selectivity (fraction of the outer table)").yAxisTitle("seconds").build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true)
                .setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(8);
        for (JoinMode mode : table.modes()) {
            var points = table.points(mode);
            chart.addSeries(mode.toString(),
                    points.stream().mapToDouble(ResultTable.Point::selectivity).toArray(),
                    points.stream().mapToDouble(ResultTable.Point::seconds).toArray());
        }
        if (table.modes().contains(JoinMode.AUTO) && !table.estimates(JoinMode.AUTO).isEmpty()) {
            var estimates = table.estimates(JoinMode.AUTO);
            chart.addSeries("auto, estimated", estimates.stream().mapToDouble(ResultTable.Point::selectivity).toArray(),
                    estimates.stream().mapToDouble(ResultTable.Point::seconds).toArray())
                    .setLineStyle(SeriesLines.DASH_DASH);
        }
        try {
            Files.write(png, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + png, e);
        }
    }
}

package org.oooengine.cluster.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** Requests per second (left axis) and latency percentiles (right axis) against requests in flight. */
public final class FetchPlot {
    private FetchPlot() {
    }

    public static void write(FetchBench.Result r, String title, Path png) {
        List<FetchBench.Level> levels = r.levels();
        double[] x = levels.stream().mapToDouble(FetchBench.Level::inFlight).toArray();
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title)
                .xAxisTitle("requests in flight on one connection").build();
        chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(8)
                .setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.addSeries("requests/s", x, levels.stream().mapToDouble(FetchBench.Level::requestsPerSecond).toArray())
                .setYAxisGroup(0);
        addLatency(chart, "p50 µs", x, levels.stream().mapToDouble(FetchBench.Level::p50Us).toArray());
        addLatency(chart, "p99 µs", x, levels.stream().mapToDouble(FetchBench.Level::p99Us).toArray());
        chart.setYAxisGroupTitle(0, "requests per second");
        chart.setYAxisGroupTitle(1, "latency (µs)");
        try {
            Files.write(png, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + png, e);
        }
    }

    private static void addLatency(XYChart chart, String name, double[] x, double[] y) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setYAxisGroup(1);
    }
}

package org.oooengine.cluster.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Weak-scaling scalability, T(1)/T(N), against the node count: one series per query, seed 004's band beside them. */
public final class ScalingPlot {
    private ScalingPlot() {
    }

    /**
     * @param series   scalability in percent by node count, per query
     * @param out      an .svg or .png file
     */
    public static void write(Map<String, Map<Integer, Double>> series, String title, Path out) {
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title)
                .xAxisTitle("nodes (same data per node)").yAxisTitle("scalability T(1)/T(N), %").build();
        chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.OutsideE).setMarkerSize(7);
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(110.0);
        int first = series.values().stream().flatMap(m -> m.keySet().stream()).min(Integer::compare).orElse(1);
        int last = series.values().stream().flatMap(m -> m.keySet().stream()).max(Integer::compare).orElse(128);
        series.forEach((name, points) -> chart.addSeries(name,
                points.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                points.values().stream().mapToDouble(Double::doubleValue).toArray()));
        for (var band : List.of(Map.entry("seed 004 Hadooode >= 90%", 90.0), Map.entry("seed 004 Hadoop 85%", 85.0),
                Map.entry("seed 004 Hadoop 66%", 66.0))) {
            var line = chart.addSeries(band.getKey(), new double[] {first, last}, new double[] {band.getValue(), band.getValue()});
            line.setLineStyle(SeriesLines.DASH_DASH);
            line.setMarker(SeriesMarkers.NONE);
        }
        try {
            String name = out.getFileName().toString();
            if (name.endsWith(".svg")) {
                VectorGraphicsEncoder.saveVectorGraphic(chart, out.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            } else {
                BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + out, e);
        }
    }
}

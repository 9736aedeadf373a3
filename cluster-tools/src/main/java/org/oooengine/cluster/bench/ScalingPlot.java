package org.oooengine.cluster.bench;

import java.awt.Color;
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

/**
 * Weak-scaling scalability, T(1)/T(N), against the node count: one line per query, and measured
 * scalability (where there is some) as markers in the query's colour; seed 004's band beside a
 * prediction of one node per host.
 */
public final class ScalingPlot {
    private ScalingPlot() {
    }

    /**
     * @param series   scalability in percent by node count, per query
     * @param measured measured scalability in percent by node count, per query (of {@code series}), or none
     * @param seedBand whether to draw seed 004's figures (for one node per host, not nodes sharing one)
     * @param out      an .svg or .png file
     */
    public static void write(Map<String, Map<Integer, Double>> series, Map<String, Map<Integer, Double>> measured,
                             boolean seedBand, String title, Path out) {
        int first = series.values().stream().flatMap(m -> m.keySet().stream()).min(Integer::compare).orElse(1);
        int last = series.values().stream().flatMap(m -> m.keySet().stream()).max(Integer::compare).orElse(128);
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title)
                .xAxisTitle("nodes (same data per node)").yAxisTitle("scalability T(1)/T(N), %").build();
        // a few node counts read better on a plain axis, which labels each of them
        chart.getStyler().setXAxisLogarithmic(last > 16).setLegendPosition(Styler.LegendPosition.OutsideE).setMarkerSize(7);
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(110.0);
        Color[] colors = chart.getStyler().getSeriesColors();
        int i = 0;
        for (var e : series.entrySet()) {
            Color color = colors[i++ % colors.length];
            var predicted = chart.addSeries(e.getKey(), xs(e.getValue()), ys(e.getValue()));
            predicted.setLineColor(color);
            predicted.setMarkerColor(color);
            Map<Integer, Double> seen = measured.get(e.getKey());
            if (seen != null && !seen.isEmpty()) {
                var m = chart.addSeries(e.getKey() + " measured", xs(seen), ys(seen));
                m.setMarkerColor(color);
                m.setLineStyle(SeriesLines.NONE);
                m.setMarker(SeriesMarkers.DIAMOND);
            }
        }
        for (var band : !seedBand ? List.<Band>of() : List.of(new Band("seed 004 Hadooode >= 90%", 90.0, new Color(200, 0, 200)),
                new Band("seed 004 Hadoop 85%", 85.0, new Color(240, 150, 200)), new Band("seed 004 Hadoop 66%", 66.0, Color.LIGHT_GRAY))) {
            var line = chart.addSeries(band.name(), new double[] {first, last}, new double[] {band.percent(), band.percent()});
            line.setLineStyle(SeriesLines.DASH_DASH);
            line.setLineColor(band.color());
            line.setMarker(SeriesMarkers.NONE);
        }
        save(chart, out);
    }

    private record Band(String name, double percent, Color color) {
    }

    private static double[] xs(Map<Integer, Double> points) {
        return points.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
    }

    private static double[] ys(Map<Integer, Double> points) {
        return points.values().stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static void save(XYChart chart, Path out) {
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

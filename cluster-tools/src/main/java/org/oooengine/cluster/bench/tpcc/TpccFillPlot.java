package org.oooengine.cluster.bench.tpcc;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * Plots of {@code ooo bench tpcc-fill --json} runs, one series per policy: the order tables' fill
 * over the run, and their leaves' fill histogram at its end; one chart per table, stacked.
 */
public final class TpccFillPlot {
    private static final String[] TABLES = {"order", "new_order", "order_line"};
    private static final int WIDTH = 900;
    private static final int HEIGHT = 380;

    private TpccFillPlot() {
    }

    /** Fill (% of the leaves' room) against transactions run, per table. */
    public static void fillOverTime(List<JsonNode> runs, Path png) {
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (String table : TABLES) {
            XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                    .title(title(table) + ": leaves' fill over the run").xAxisTitle("transactions")
                    .yAxisTitle("fill (%)").build();
            chart.getStyler().setMarkerSize(5);
            chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSW);
            chart.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
            for (JsonNode run : runs) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (JsonNode point : run.get("fill_over_time")) {
                    x.add(point.get("transactions").asDouble());
                    y.add(100 * point.get(table + "_fill").asDouble());
                }
                chart.addSeries(run.get("policy").asText(), x, y);
            }
            charts.add(chart);
        }
        write(charts, png);
    }

    /** How many leaves are how full at the end of the run (10% buckets), per table. */
    public static void histogram(List<JsonNode> runs, Path png) {
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (String table : TABLES) {
            CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                    .title(title(table) + ": leaves by fill at the end").xAxisTitle("fill (%)").yAxisTitle("leaves").build();
            chart.getStyler().setOverlapped(false);
            chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
            for (JsonNode run : runs) {
                JsonNode buckets = run.get(table + "_fill_histogram");
                List<String> x = new ArrayList<>();
                List<Long> y = new ArrayList<>();
                for (int b = 0; b < buckets.size(); b++) {
                    x.add(b == buckets.size() - 1 ? "100" : b * 10 + "-" + (b * 10 + 10));
                    y.add(buckets.get(b).asLong());
                }
                chart.addSeries(run.get("policy").asText(), x, y);
            }
            charts.add(chart);
        }
        write(charts, png);
    }

    private static String title(String table) {
        return table.equals("order") ? "orders" : table;
    }

    private static void write(List<Chart<?, ?>> charts, Path png) {
        org.oooengine.cluster.bench.StackedCharts.write(charts, WIDTH, HEIGHT, png);
    }
}

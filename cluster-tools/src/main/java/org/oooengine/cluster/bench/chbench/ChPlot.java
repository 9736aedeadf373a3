package org.oooengine.cluster.bench.chbench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.oooengine.cluster.bench.StackedCharts;

/**
 * CH-benCHmark runs over time, a series per run (its mode): commits a second, queries answered so
 * far, the copies' freshness and lag, the query running longest, the copies' deltas and the commits
 * owed to them — from the per-second rows {@code bench chbench} writes.
 */
public final class ChPlot {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 300;

    private ChPlot() {
    }

    /** Each run is a JSON object with {@code mode} and {@code series} (what {@code --series} writes). */
    public static void write(List<JsonNode> runs, Path png) {
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(chart("OLTP: TPC-C commits a second", "tps", runs, row -> row.get("commits").asDouble(), false));
        charts.add(chart("OLAP: queries answered so far", "queries", runs, row -> row.get("queries").asDouble(), true));
        charts.add(chart("freshness of the copies (rows up to date)", "freshness", runs, row -> number(row, "freshness"),
                false));
        charts.add(chart("lag of the copies (oldest commit not shown)", "seconds", runs, row -> number(row, "lag_seconds"),
                false));
        if (recorded(runs, "longest_query_seconds")) { // series written before these were recorded have none
            charts.add(chart("the query running longest", "seconds", runs, row -> number(row, "longest_query_seconds"),
                    false));
            charts.add(chart("the copies' work, all nodes: keys in the read copies' deltas", "keys", runs,
                    row -> number(row, "delta_keys"), false));
            charts.add(chart("the copies' work, all nodes: commits owed to the applying copies", "commits", runs,
                    row -> number(row, "owed_commits"), false));
        }
        XYChart slots = slots(runs);
        if (!slots.getSeriesMap().isEmpty()) {
            charts.add(slots);
        }
        StackedCharts.write(charts, WIDTH, HEIGHT, png);
    }

    /** Whether any run's series has {@code field}. */
    private static boolean recorded(List<JsonNode> runs, String field) {
        for (JsonNode run : runs) {
            for (JsonNode row : run.get("series")) {
                if (row.has(field)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A row's figure; NaN where it has none (a series written before it was recorded, or no copies read). */
    private static double number(JsonNode row, String field) {
        JsonNode n = row.path(field);
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /** The core roles' slots summed over the nodes, a series per role and run, for runs whose nodes had them. */
    private static XYChart slots(List<JsonNode> runs) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("core-role slots, all nodes")
                .xAxisTitle("seconds into the phases").yAxisTitle("slots").build();
        chart.getStyler().setMarkerSize(3);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        for (JsonNode run : runs) {
            for (String role : List.of("oltp", "olap", "log_shipping")) {
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (JsonNode row : run.get("series")) {
                    JsonNode n = row.path("slots").path(role);
                    if (n.isNumber()) {
                        xs.add(row.get("t").asDouble());
                        ys.add(n.asDouble());
                    }
                }
                if (!xs.isEmpty()) {
                    chart.addSeries(run.get("mode").asText() + " " + role.replace('_', '-'), xs, ys);
                }
            }
        }
        return chart;
    }

    private static XYChart chart(String title, String yTitle, List<JsonNode> runs, ToDoubleFunction<JsonNode> y,
                                 boolean cumulative) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("seconds into the phases")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setMarkerSize(3);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS); // freshness hugs 1: inside, the legend hides it
        for (JsonNode run : runs) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            double sum = 0;
            for (JsonNode row : run.get("series")) {
                double v = y.applyAsDouble(row);
                if (cumulative) {
                    sum += v;
                    v = sum;
                }
                if (!Double.isNaN(v)) {
                    xs.add(row.get("t").asDouble());
                    ys.add(v);
                }
            }
            if (!xs.isEmpty()) {
                String name = run.get("mode").asText();
                chart.addSeries(chart.getSeriesMap().containsKey(name) ? name + " #" + (runs.indexOf(run) + 1) : name, xs, ys);
            }
        }
        return chart;
    }
}

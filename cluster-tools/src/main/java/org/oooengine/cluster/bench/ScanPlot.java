package org.oooengine.cluster.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * {@code ooo bench scan}'s runs as bars: per scheduling pattern, the scan's time balanced, with a
 * node given more splits and with a node slowed; below, the nodes' idle seconds added up.
 */
public final class ScanPlot {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    private ScanPlot() {
    }

    /** One bar group per pattern, one bar per way the nodes were set ({@code label} of a run). */
    public static void write(List<Map<String, Object>> runs, java.util.function.Function<Map<String, Object>, String> label,
                             Path png) {
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(chart(runs, label, "scan time by pattern", "seconds", run -> ((Number) run.get("seconds")).doubleValue()));
        charts.add(chart(runs, label, "idle seconds, all nodes added up", "seconds", ScanPlot::idle));
        StackedCharts.write(charts, WIDTH, HEIGHT, png);
    }

    private static CategoryChart chart(List<Map<String, Object>> runs,
                                       java.util.function.Function<Map<String, Object>, String> label, String title,
                                       String yTitle, ToDoubleFunction<Map<String, Object>> figure) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("pattern").yAxisTitle(yTitle).build();
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        Map<String, Map<String, Double>> bySeries = new LinkedHashMap<>();
        List<String> patterns = new ArrayList<>();
        for (Map<String, Object> run : runs) {
            String pattern = (String) run.get("pattern");
            if (!patterns.contains(pattern)) {
                patterns.add(pattern);
            }
            bySeries.computeIfAbsent(label.apply(run), k -> new LinkedHashMap<>()).put(pattern, figure.applyAsDouble(run));
        }
        bySeries.forEach((series, values) -> chart.addSeries(series, patterns,
                patterns.stream().map(p -> values.getOrDefault(p, 0.0)).toList()));
        return chart;
    }

    @SuppressWarnings("unchecked")
    private static double idle(Map<String, Object> run) {
        return ((Map<String, Map<String, Object>>) run.get("nodes")).values().stream()
                .mapToDouble(n -> ((Number) n.get("idle_seconds")).doubleValue()).sum();
    }
}

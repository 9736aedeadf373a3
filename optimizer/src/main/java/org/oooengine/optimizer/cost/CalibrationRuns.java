package org.oooengine.optimizer.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Calibrations taken one after another on the same cluster: one made of their medians, each
 * figure with its spread, and how far two calibrations differ figure by figure. A figure is a
 * number of the calibration file, named by its path ({@code indexJoin.coldReadsPerSecond.8}); the
 * cluster's shape (nodes, page size, buffer pool, devices shared) is not a measurement and is
 * neither combined nor compared.
 */
public final class CalibrationRuns {
    /** Numbers that describe the cluster rather than measure it. */
    private static final List<String> SHAPE = List.of("nodes", "pageSize", "bufferPoolPages", "disk.sharedByNodes");

    private CalibrationRuns() {
    }

    /**
     * A calibration whose figures are the medians of {@code runs}' (taken when the last run was), with
     * each figure's spread; the runs must be of one cluster's shape.
     */
    public static Calibration combine(List<Calibration> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no calibration runs to combine");
        }
        Calibration last = runs.get(runs.size() - 1);
        for (Calibration r : runs) {
            if (r.nodes() != last.nodes() || r.pageSize() != last.pageSize()) {
                throw new IllegalArgumentException("calibration runs of different clusters: " + r.nodes() + " and "
                        + last.nodes() + " nodes");
            }
        }
        List<Map<String, Double>> figures = runs.stream().map(CalibrationRuns::figures).toList();
        ObjectNode combined = Calibration.JSON.valueToTree(last);
        Map<String, Double> spread = new LinkedHashMap<>();
        for (String path : figures.get(figures.size() - 1).keySet()) {
            double[] values = figures.stream().mapToDouble(f -> f.getOrDefault(path, Double.NaN)).toArray();
            if (Arrays.stream(values).anyMatch(Double::isNaN)) {
                throw new IllegalArgumentException("calibration runs with different figures: " + path);
            }
            double median = median(values);
            set(combined, path, median);
            double least = Arrays.stream(values).min().orElseThrow();
            double greatest = Arrays.stream(values).max().orElseThrow();
            spread.put(path, median == 0 ? 0 : (greatest - least) / Math.abs(median));
        }
        combined.remove("spread");
        try {
            Calibration c = Calibration.JSON.treeToValue(combined, Calibration.class);
            return new Calibration(c.measuredAt(), c.nodes(), c.pageSize(), c.bufferPoolPages(), c.disk(), c.network(),
                    c.indexJoin(), c.mapReduce(), runs.size() > 1 ? spread : Map.of());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot combine calibration runs: " + e.getMessage(), e);
        }
    }

    /** How far {@code b}'s figures lie from {@code a}'s: |b - a| / |a| by path, for the figures both have. */
    public static Map<String, Double> differences(Calibration a, Calibration b) {
        Map<String, Double> fa = figures(a);
        Map<String, Double> fb = figures(b);
        Map<String, Double> out = new LinkedHashMap<>();
        fa.forEach((path, x) -> {
            Double y = fb.get(path);
            if (y != null) {
                out.put(path, x == 0 ? (y == 0 ? 0 : Double.POSITIVE_INFINITY) : Math.abs(y - x) / Math.abs(x));
            }
        });
        return out;
    }

    /** The measured numbers of {@code c} by path, in the file's order. */
    static Map<String, Double> figures(Calibration c) {
        ObjectNode tree = Calibration.JSON.valueToTree(c);
        tree.remove("spread");
        Map<String, Double> out = new LinkedHashMap<>();
        collect(tree, "", out);
        SHAPE.forEach(out::remove);
        return out;
    }

    private static void collect(JsonNode node, String path, Map<String, Double> out) {
        if (node.isNumber()) {
            out.put(path, node.asDouble());
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                collect(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out);
            }
        }
    }

    private static void set(ObjectNode tree, String path, double value) {
        String[] parts = path.split("\\.");
        ObjectNode parent = tree;
        for (int i = 0; i < parts.length - 1; i++) {
            parent = (ObjectNode) parent.get(parts[i]);
        }
        String leaf = parts[parts.length - 1];
        parent.set(leaf, parent.get(leaf).isIntegralNumber() ? LongNode.valueOf(Math.round(value)) : DoubleNode.valueOf(value));
    }

    /** The middle of {@code values} (the mean of the two middle ones for an even count). */
    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The paths of {@code differences} above {@code bound}, the largest first. */
    public static List<Map.Entry<String, Double>> beyond(Map<String, Double> differences, double bound) {
        List<Map.Entry<String, Double>> out = new ArrayList<>();
        differences.entrySet().stream().filter(e -> e.getValue() > bound)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).forEach(out::add);
        return out;
    }
}

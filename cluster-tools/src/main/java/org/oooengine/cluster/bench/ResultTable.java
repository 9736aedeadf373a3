package org.oooengine.cluster.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Join results side by side: one row per query and selectivity, one time column per mode (the
 * median of its runs), the out-of-order speedups and IOPS. Rendered as aligned text or markdown.
 */
public final class ResultTable {
    /** A mode's median time at one selectivity, for plotting. */
    public record Point(double selectivity, double seconds) {
    }

    private record Key(String query, double selectivity) {
    }

    private final List<JoinMode> modes;
    private final Map<Key, Map<JoinMode, List<JoinResult>>> groups;

    private ResultTable(List<JoinMode> modes, Map<Key, Map<JoinMode, List<JoinResult>>> groups) {
        this.modes = modes;
        this.groups = groups;
    }

    public static ResultTable of(List<JoinResult> results) {
        List<JoinMode> modes = List.copyOf(results.stream().map(JoinResult::mode)
                .collect(Collectors.toCollection(LinkedHashSet::new)));
        Map<Key, Map<JoinMode, List<JoinResult>>> groups = new LinkedHashMap<>();
        for (JoinResult r : results) {
            groups.computeIfAbsent(new Key(r.query(), r.selectivity()), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.mode(), m -> new ArrayList<>()).add(r);
        }
        return new ResultTable(modes, groups);
    }

    public List<JoinMode> modes() {
        return modes;
    }

    /** The run with the median time (the lower one of an even count): robust to one noisy run. */
    private static JoinResult median(List<JoinResult> runs) {
        List<JoinResult> sorted = runs.stream().sorted(Comparator.comparingDouble(JoinResult::seconds)).toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** The optimizer's plan, its estimate against the measured time, and the time against the best forced mode. */
    private static List<String> optimizerColumns(Map<JoinMode, JoinResult> medians) {
        JoinResult auto = medians.get(JoinMode.AUTO);
        if (auto == null || auto.estimatedSeconds() == null) {
            return List.of("-", "-", "-", "-");
        }
        double bestForced = medians.entrySet().stream().filter(e -> e.getKey() != JoinMode.AUTO)
                .mapToDouble(e -> e.getValue().seconds()).min().orElse(Double.NaN);
        return List.of(auto.chosen(), Format.seconds(auto.estimatedSeconds()),
                String.format(java.util.Locale.ROOT, "%.2f", auto.estimatedSeconds() / auto.seconds()),
                String.format(java.util.Locale.ROOT, "%.2f", auto.seconds() / bestForced));
    }

    /** The optimizer's estimates for a mode's plans (median runs that carry one), for plotting beside the times. */
    public List<Point> estimates(JoinMode mode) {
        List<Point> points = new ArrayList<>();
        groups.forEach((key, byMode) -> {
            if (byMode.containsKey(mode) && median(byMode.get(mode)).estimatedSeconds() != null) {
                points.add(new Point(key.selectivity(), median(byMode.get(mode)).estimatedSeconds()));
            }
        });
        points.sort(Comparator.comparingDouble(Point::selectivity));
        return points;
    }

    public List<Point> points(JoinMode mode) {
        List<Point> points = new ArrayList<>();
        groups.forEach((key, byMode) -> {
            if (byMode.containsKey(mode)) {
                points.add(new Point(key.selectivity(), median(byMode.get(mode)).seconds()));
            }
        });
        points.sort(Comparator.comparingDouble(Point::selectivity));
        return points;
    }

    /** One line per query and selectivity whose runs did not all return the same rows. */
    public List<String> disagreements() {
        List<String> out = new ArrayList<>();
        groups.forEach((key, byMode) -> {
            List<JoinResult> runs = byMode.values().stream().flatMap(List::stream).toList();
            if (!runs.stream().allMatch(r -> r.sameRowsAs(runs.get(0)))) {
                out.add(key.query() + " at " + Format.percent(key.selectivity()) + ": " + runs.stream()
                        .map(r -> String.format(Locale.ROOT, "%s run %d %,d rows (checksum %016x)", r.mode(), r.run(), r.rows(), r.checksum()))
                        .collect(Collectors.joining(", ")));
            }
        });
        return out;
    }

    private List<String> header() {
        List<String> h = new ArrayList<>(List.of("query", "selectivity", "outer rows", "rows"));
        modes.forEach(m -> h.add(m + " s"));
        speedupBases().forEach(base -> h.add("ooo vs " + base));
        if (modes.contains(JoinMode.OOO)) {
            h.add("ooo IOPS");
        }
        if (modes.contains(JoinMode.AUTO)) {
            h.addAll(List.of("auto chose", "auto estimate s", "estimate / measured", "auto vs best forced"));
        }
        return h;
    }

    private List<JoinMode> speedupBases() {
        if (!modes.contains(JoinMode.OOO)) {
            return List.of();
        }
        return modes.stream().filter(m -> m != JoinMode.OOO).toList();
    }

    private List<List<String>> body() {
        List<List<String>> rows = new ArrayList<>();
        groups.forEach((key, byMode) -> {
            JoinResult any = byMode.values().iterator().next().get(0);
            // Outer rows show where ties in the range column made the query select more than asked.
            List<String> row = new ArrayList<>(List.of(key.query(), Format.percent(key.selectivity()),
                    Format.count(any.outerRows()), Format.count(any.rows())));
            Map<JoinMode, JoinResult> medians = new LinkedHashMap<>();
            byMode.forEach((m, runs) -> medians.put(m, median(runs)));
            modes.forEach(m -> row.add(medians.containsKey(m) ? Format.seconds(medians.get(m).seconds()) : "-"));
            JoinResult ooo = medians.get(JoinMode.OOO);
            for (JoinMode base : speedupBases()) {
                JoinResult b = medians.get(base);
                row.add(ooo == null || b == null ? "-" : Format.speedup(b.seconds() / ooo.seconds()));
            }
            if (modes.contains(JoinMode.OOO)) {
                row.add(ooo == null ? "-" : Format.count(ooo.iops()));
            }
            if (modes.contains(JoinMode.AUTO)) {
                row.addAll(optimizerColumns(medians));
            }
            rows.add(row);
        });
        return rows;
    }

    /** Aligned plain text: the query left-aligned, numbers right-aligned. */
    public String text() {
        List<List<String>> all = new ArrayList<>();
        all.add(header());
        all.addAll(body());
        int[] width = new int[all.get(0).size()];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                String format = i == 0 ? "%-" + width[i] + "s" : "  %" + width[i] + "s";
                sb.append(String.format(format, row.get(i)));
            }
            sb.append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** The table as markdown, then, when runs carry the optimizer's estimates, {@link #estimatesMarkdown}. */
    public String markdown() {
        String estimates = estimatesMarkdown();
        return mdTable(header(), body()) + (estimates.isEmpty() ? "" : System.lineSeparator() + estimates);
    }

    /**
     * Every plan against its estimate: one row per query, selectivity and mode whose median run
     * carries one (the forced modes' plans too, so each cost model shows where it is off). Empty
     * when no run carries an estimate.
     */
    public String estimatesMarkdown() {
        List<List<String>> rows = new ArrayList<>();
        groups.forEach((key, byMode) -> byMode.forEach((mode, runs) -> {
            JoinResult m = median(runs);
            if (m.estimatedSeconds() != null) {
                rows.add(List.of(key.query(), Format.percent(key.selectivity()), mode.toString(),
                        Objects.requireNonNullElse(m.chosen(), "-"), Format.seconds(m.seconds()),
                        Format.seconds(m.estimatedSeconds()),
                        String.format(Locale.ROOT, "%.2f", m.estimatedSeconds() / m.seconds())));
            }
        }));
        return rows.isEmpty() ? "" : mdTable(List.of("query", "selectivity", "mode", "plan", "measured s",
                "estimated s", "estimate / measured"), rows);
    }

    /** A markdown table: text columns left-aligned, figures right-aligned. */
    private static String mdTable(List<String> header, List<List<String>> rows) {
        List<String> textColumns = List.of("query", "mode", "plan");
        StringBuilder sb = new StringBuilder();
        sb.append(mdRow(header));
        sb.append(mdRow(header.stream().map(h -> textColumns.contains(h) ? "---" : "---:").toList()));
        rows.forEach(row -> sb.append(mdRow(row)));
        return sb.toString();
    }

    private static String mdRow(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |" + System.lineSeparator();
    }
}

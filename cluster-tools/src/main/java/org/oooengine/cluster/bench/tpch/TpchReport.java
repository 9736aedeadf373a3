package org.oooengine.cluster.bench.tpch;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Locale;
import org.oooengine.cluster.bench.Format;

/**
 * What {@code ooo bench tpch} reports: per query and the total of the medians of the queries that ran.
 *
 * @param nodeCores cores of the machine a node runs on (the fewest over the nodes), 0 when unknown
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TpchReport(String cluster, int nodes, int nodeCores, int repeat, List<TpchQueryResult> queries, double totalS) {

    public static TpchReport of(String cluster, int nodes, int nodeCores, int repeat, List<TpchQueryResult> queries) {
        double total = queries.stream().filter(TpchQueryResult::ok).mapToDouble(TpchQueryResult::medianS).sum();
        return new TpchReport(cluster, nodes, nodeCores, repeat, queries, Math.round(total * 1000) / 1000.0);
    }

    public long failures() {
        return queries.stream().filter(q -> !q.ok()).count();
    }

    /** The line printed as each query finishes. */
    public static String progress(TpchQueryResult q) {
        return q.ok()
                ? String.format(Locale.ROOT, "%s: %s s (median), %s rows", q.query(), Format.seconds(q.medianS()),
                        Format.count(q.rows()))
                : q.query() + ": failed: " + q.error();
    }

    /** A table for people: one line per query, then the total. */
    public String table() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "TPC-H on %s (%d nodes), median of %d runs after "
                + "a warm-up; held: the most its operators held at once on the coordinator and in one pipeline on a "
                + "node%n%-6s %10s %10s %17s  %s%n", cluster, nodes, repeat, "query", "median s", "rows", "held MiB (c/n)",
                "runs s"));
        for (TpchQueryResult q : queries) {
            if (q.ok()) {
                String spill = q.spilledBytes() != null && q.spilledBytes() > 0
                        ? String.format(Locale.ROOT, "  (spilled %.1f MiB)", q.spilledBytes() / (double) (1 << 20)) : "";
                String held = q.nodePeakBytes() == null ? "-" : String.format(Locale.ROOT, "%.1f / %.1f",
                        q.coordinatorPeakBytes() / (double) (1 << 20), q.nodePeakBytes() / (double) (1 << 20));
                b.append(String.format(Locale.ROOT, "%-6s %10s %10s %17s  %s%s%n", q.query(), Format.seconds(q.medianS()),
                        Format.count(q.rows()), held, String.join(" ", q.runsS().stream().map(Format::seconds).toList()),
                        spill));
            } else {
                b.append(String.format(Locale.ROOT, "%-6s %10s %10s  %s%n", q.query(), "failed", "-", q.error()));
            }
        }
        b.append(String.format(Locale.ROOT, "%-6s %10s  (%d queries, %d failed)%n", "total", Format.seconds(totalS),
                queries.size(), failures()));
        return b.toString();
    }
}

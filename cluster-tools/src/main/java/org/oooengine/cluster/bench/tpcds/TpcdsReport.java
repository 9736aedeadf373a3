package org.oooengine.cluster.bench.tpcds;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.oooengine.cluster.bench.Format;
import org.oooengine.cluster.bench.tpcds.TpcdsQueryResult.Status;

/**
 * What {@code ooo bench tpcds} reports: each query, how many end in each status, the refusals and
 * failures by cause, and the engine's time against DuckDB's over the queries both answered alike.
 *
 * @param counts         queries per status (ok, wrong, refused, timeout, failed)
 * @param causes         refused, timed-out and failed queries per cause, most frequent first
 * @param okS            the engine's medians summed over the ok queries
 * @param okDuckdbS      DuckDB's medians summed over the same queries
 * @param duckdbThreads  DuckDB's worker threads
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TpcdsReport(String cluster, int nodes, double scaleFactor, int repeat, long timeoutS, int duckdbThreads,
                          List<TpcdsQueryResult> queries, Map<String, Long> counts, Map<String, List<String>> causes,
                          double okS, double okDuckdbS) {

    public static TpcdsReport of(String cluster, int nodes, double scaleFactor, int repeat, long timeoutS, int duckdbThreads,
                                 List<TpcdsQueryResult> queries) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Status s : Status.values()) {
            counts.put(s.label(), queries.stream().filter(q -> q.status() == s).count());
        }
        Map<String, List<String>> byCause = new TreeMap<>();
        for (TpcdsQueryResult q : queries) {
            if (q.status() == Status.REFUSED || q.status() == Status.TIMEOUT || q.status() == Status.FAILED) {
                byCause.computeIfAbsent(q.cause(), c -> new java.util.ArrayList<>()).add(q.query());
            }
        }
        Map<String, List<String>> causes = new LinkedHashMap<>();
        byCause.entrySet().stream()
                .sorted(Comparator.comparing((Map.Entry<String, List<String>> e) -> -e.getValue().size())
                        .thenComparing(Map.Entry::getKey))
                .forEach(e -> causes.put(e.getKey(), e.getValue()));
        double ok = 0;
        double okDuckdb = 0;
        for (TpcdsQueryResult q : queries) {
            if (q.status() == Status.OK && q.medianS() != null && q.duckdbS() != null) {
                ok += q.medianS();
                okDuckdb += q.duckdbS();
            }
        }
        return new TpcdsReport(cluster, nodes, scaleFactor, repeat, timeoutS, duckdbThreads, queries, counts, causes,
                TpcdsBench.millis(ok), TpcdsBench.millis(okDuckdb));
    }

    public long count(Status status) {
        return counts.getOrDefault(status.label(), 0L);
    }

    /** The line printed as each query finishes. */
    public static String progress(TpcdsQueryResult q) {
        return switch (q.status()) {
            case OK -> String.format(Locale.ROOT, "%s: ok, %s s (DuckDB %s s), %s rows", q.query(), seconds(q.medianS()),
                    seconds(q.duckdbS()), Format.count(q.rows()));
            case WRONG -> q.query() + ": WRONG: " + q.difference();
            case REFUSED -> q.query() + ": refused: " + q.sqlState() + " " + q.error();
            case TIMEOUT -> q.query() + ": timeout: " + q.error();
            case FAILED -> q.query() + ": failed: " + q.error();
        };
    }

    /** A table for people: one line per query, the totals, then the causes. */
    public String table() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "TPC-DS SF %s on %s (%d nodes): median of %d "
                        + "runs after a warm-up, %d s limit; DuckDB with %d threads over the same rows%n"
                        + "%-6s %-8s %10s %10s %8s  %s%n", Format.number(scaleFactor), cluster, nodes, repeat, timeoutS,
                duckdbThreads, "query", "status", "engine s", "DuckDB s", "rows", "note"));
        for (TpcdsQueryResult q : queries) {
            String note = switch (q.status()) {
                case OK -> "";
                case WRONG -> q.difference();
                case REFUSED -> q.sqlState() + " " + firstLine(q.error());
                case TIMEOUT, FAILED -> firstLine(q.error());
            };
            b.append(String.format(Locale.ROOT, "%-6s %-8s %10s %10s %8s  %s%n", q.query(), q.status().label(),
                    seconds(q.medianS()), seconds(q.duckdbS()), q.rows() == null ? "-" : Format.count(q.rows()), note));
        }
        b.append(String.format(Locale.ROOT, "%d queries: %d ok, %d wrong, %d refused, %d timeout, %d failed%n",
                queries.size(), count(Status.OK), count(Status.WRONG), count(Status.REFUSED), count(Status.TIMEOUT),
                count(Status.FAILED)));
        if (okDuckdbS > 0) {
            b.append(String.format(Locale.ROOT, "ok queries: engine %s s, DuckDB %s s (%.1fx)%n", seconds(okS),
                    seconds(okDuckdbS), okS / okDuckdbS));
        }
        causes.forEach((cause, qs) -> b.append(String.format(Locale.ROOT, "  %3d  %s: %s%n", qs.size(), cause,
                String.join(",", qs))));
        return b.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String seconds(Double s) {
        return s == null ? "-" : Format.seconds(s);
    }
}

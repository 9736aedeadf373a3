package org.oooengine.cluster.bench.chbench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a CH-benCHmark run saw, by the second: commits, queries answered, and the copies'
 * freshness and lag as sampled; summed or averaged over any window of the run.
 */
final class ChSeries {
    private final long origin;
    private final ConcurrentSkipListMap<Long, LongAdder> commits = new ConcurrentSkipListMap<>();
    private final ConcurrentSkipListMap<Long, LongAdder> queries = new ConcurrentSkipListMap<>();
    private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();

    /**
     * @param lagByTable each table's greatest lag over the nodes
     * @param slots each core role's slots, summed over the nodes (empty when the nodes' roles are unbounded)
     * @param copies the copies' work, summed over the nodes
     * @param longestQuery how long the query running longest had run, in seconds
     */
    private record Sample(long nanos, double freshness, double lag, Map<String, Double> lagByTable,
                          Map<String, Integer> slots, CopyWork copies, double longestQuery) {
    }

    /**
     * What the copies did, summed over the nodes: switches and commits applied since they started,
     * and now the commits owed to the applying copies and the keys in the read copies' deltas.
     */
    record CopyWork(long switches, long applied, long owedCommits, long deltaKeys) {
        static final CopyWork NONE = new CopyWork(0, 0, 0, 0);

        CopyWork plus(CopyWork o) {
            return new CopyWork(switches + o.switches, applied + o.applied, owedCommits + o.owedCommits,
                    deltaKeys + o.deltaKeys);
        }
    }

    ChSeries(long origin) {
        this.origin = origin;
    }

    void commit() {
        count(commits);
    }

    void query() {
        count(queries);
    }

    private void count(ConcurrentSkipListMap<Long, LongAdder> perSecond) {
        perSecond.computeIfAbsent(second(System.nanoTime()), s -> new LongAdder()).increment();
    }

    void freshness(double rate, Map<String, Double> lagByTable, Map<String, Integer> slots, CopyWork copies,
                   double longestQuery) {
        double lag = lagByTable.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        samples.add(new Sample(System.nanoTime(), rate, lag, Map.copyOf(lagByTable), Map.copyOf(slots), copies,
                longestQuery));
    }

    /** Each core role's slots summed over the nodes, averaged over the samples of the window; empty without any. */
    Map<String, Double> meanSlots(long from, long to) {
        Map<String, Double> sum = new java.util.TreeMap<>();
        long n = 0;
        for (Sample s : window(from, to)) {
            if (!s.slots().isEmpty()) {
                n++;
                s.slots().forEach((role, k) -> sum.merge(role, (double) k, Double::sum));
            }
        }
        long count = n;
        sum.replaceAll((role, total) -> total / count);
        return sum;
    }

    private long second(long nanos) {
        return (nanos - origin) / 1_000_000_000L;
    }

    /** Queries answered within [from, to) (nanoTime), counted by the second they ended in. */
    double queries(long from, long to) {
        return sum(queries, from, to);
    }

    private double sum(ConcurrentSkipListMap<Long, LongAdder> perSecond, long from, long to) {
        return perSecond.subMap(second(from), true, second(to), false).values().stream().mapToLong(LongAdder::sum).sum();
    }

    double freshness(long from, long to) {
        return window(from, to).stream().mapToDouble(Sample::freshness).average().orElse(Double.NaN);
    }

    double minFreshness(long from, long to) {
        return window(from, to).stream().mapToDouble(Sample::freshness).min().orElse(Double.NaN);
    }

    double meanLag(long from, long to) {
        return window(from, to).stream().mapToDouble(Sample::lag).average().orElse(Double.NaN);
    }

    double maxLag(long from, long to) {
        return window(from, to).stream().mapToDouble(Sample::lag).max().orElse(Double.NaN);
    }

    /** The 99th percentile of the sampled lags (the nearest rank). */
    double p99Lag(long from, long to) {
        return p99(window(from, to).stream().mapToDouble(Sample::lag).sorted().toArray());
    }

    /** Each table's lag over the samples: mean, 99th percentile and greatest, in seconds. */
    Map<String, Map<String, Double>> lagByTable(long from, long to) {
        Map<String, List<Double>> lags = new java.util.TreeMap<>();
        for (Sample s : window(from, to)) {
            s.lagByTable().forEach((t, lag) -> lags.computeIfAbsent(t, x -> new ArrayList<>()).add(lag));
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        lags.forEach((t, l) -> {
            double[] sorted = l.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("mean_seconds", java.util.Arrays.stream(sorted).average().orElse(0));
            m.put("p99_seconds", p99(sorted));
            m.put("max_seconds", sorted[sorted.length - 1]);
            out.put(t, m);
        });
        return out;
    }

    private static double p99(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
    }

    private java.util.Optional<Sample> lastBefore(long nanos) {
        return samples.stream().filter(s -> s.nanos() < nanos).reduce((a, b) -> b);
    }

    private List<Sample> window(long from, long to) {
        return samples.stream().filter(s -> s.nanos() >= from && s.nanos() < to).toList();
    }

    /** A figure for JSON: null where there was nothing to measure (NaN). */
    static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /**
     * One row per second of [from, to): seconds since {@code from}, commits, queries, freshness, lag,
     * the roles' slots, the copies' switches, commits applied and owed and delta keys, and the longest
     * running query.
     */
    List<Map<String, Object>> rows(long from, long to) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (long s = second(from); s < second(to); s++) {
            long start = origin + s * 1_000_000_000L;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t", s - second(from));
            LongAdder c = commits.get(s);
            LongAdder q = queries.get(s);
            row.put("commits", c == null ? 0 : c.sum());
            row.put("queries", q == null ? 0 : q.sum());
            row.put("freshness", orNull(freshness(start, start + 1_000_000_000L)));
            row.put("lag_seconds", orNull(maxLag(start, start + 1_000_000_000L)));
            Map<String, Double> slots = meanSlots(start, start + 1_000_000_000L);
            if (!slots.isEmpty()) {
                row.put("slots", slots);
            }
            List<Sample> second = window(start, start + 1_000_000_000L);
            if (!second.isEmpty()) {
                CopyWork before = lastBefore(start).orElse(second.get(0)).copies();
                CopyWork now = second.get(second.size() - 1).copies();
                row.put("switches", now.switches() - before.switches());
                row.put("applied", now.applied() - before.applied());
                row.put("owed_commits", second.stream().mapToLong(x -> x.copies().owedCommits()).max().orElse(0));
                row.put("delta_keys", second.stream().mapToLong(x -> x.copies().deltaKeys()).max().orElse(0));
                row.put("longest_query_seconds", second.stream().mapToDouble(Sample::longestQuery).max().orElse(0));
            }
            out.add(row);
        }
        return out;
    }
}

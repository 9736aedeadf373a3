package org.oooengine.optimizer.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.oooengine.core.stats.ColumnStatistics;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.stats.ValueSample;
import org.oooengine.core.types.DataType;

/**
 * A table's statistics from those of its partitions: rows, bytes and NULLs add up, min and max are
 * the extremes, the distinct values are estimated from the union of the partitions' HyperLogLog
 * sketches (not their sum: a value may live in several partitions), and the equi-depth histograms
 * are merged into one, the value samples too.
 */
public final class TableStatisticsMerger {
    private TableStatisticsMerger() {
    }

    /**
     * @param types     the table's column types, in schema order (to compare values)
     * @param buckets   buckets of the merged histograms
     */
    public static TableStatistics merge(List<TableStatistics> partitions, List<DataType> types, int buckets) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("no partitions to merge");
        }
        TableStatistics first = partitions.get(0);
        long rows = 0;
        long bytes = 0;
        Map<String, Long> indexBytes = new TreeMap<>();
        for (TableStatistics p : partitions) {
            rows += p.rows();
            bytes += p.bytes();
            p.indexBytes().forEach((ix, b) -> indexBytes.merge(ix, b, Long::sum));
        }
        List<ColumnStatistics> columns = new ArrayList<>(first.columns().size());
        for (int c = 0; c < first.columns().size(); c++) {
            int column = c;
            List<ColumnStatistics> parts = partitions.stream().map(p -> p.columns().get(column)).toList();
            List<Long> values = partitions.stream().map(p -> p.rows() - p.columns().get(column).nulls()).toList();
            columns.add(mergeColumn(parts, values, types.get(c), buckets));
        }
        return new TableStatistics(first.table(), rows, bytes, columns, indexBytes);
    }

    /** @param values the non-NULL values each part holds (the weight of its sample) */
    static ColumnStatistics mergeColumn(List<ColumnStatistics> parts, List<Long> values, DataType type, int buckets) {
        Comparator<String> byValue = valueOrder(type);
        long nulls = 0;
        String min = null;
        String max = null;
        for (ColumnStatistics p : parts) {
            nulls += p.nulls();
            if (p.min() != null && (min == null || byValue.compare(p.min(), min) < 0)) {
                min = p.min();
            }
            if (p.max() != null && (max == null || byValue.compare(p.max(), max) > 0)) {
                max = p.max();
            }
        }
        return new ColumnStatistics(parts.get(0).column(), nulls, min, max, ColumnStatistics.unionSketch(parts),
                mergeHistograms(parts, byValue, buckets),
                ValueSample.merge(parts.stream().map(ColumnStatistics::sample).toList(), values));
    }

    /**
     * One equi-depth histogram from several: the partitions' buckets in value order, each bucket's
     * rows counted at its upper bound, cut again wherever the running count passes a multiple of
     * total / buckets. A bound is then off by at most one partition bucket per partition.
     */
    static List<ColumnStatistics.Bucket> mergeHistograms(List<ColumnStatistics> parts, Comparator<String> byValue,
                                                         int buckets) {
        List<ColumnStatistics.Bucket> all = new ArrayList<>();
        parts.forEach(p -> all.addAll(p.histogram()));
        if (all.isEmpty()) {
            return List.of();
        }
        all.sort(Comparator.comparing(ColumnStatistics.Bucket::upper, byValue));
        long total = all.stream().mapToLong(ColumnStatistics.Bucket::rows).sum();
        int b = (int) Math.min(buckets, total);
        List<ColumnStatistics.Bucket> out = new ArrayList<>(b);
        long running = 0;
        long emitted = 0;
        for (int i = 0; i < all.size(); i++) {
            ColumnStatistics.Bucket bucket = all.get(i);
            running += bucket.rows();
            boolean last = i == all.size() - 1;
            boolean nextSameBound = !last && byValue.compare(all.get(i + 1).upper(), bucket.upper()) == 0;
            if (!nextSameBound && (last || running >= (out.size() + 1) * total / b)) {
                out.add(new ColumnStatistics.Bucket(bucket.upper(), running - emitted));
                emitted = running;
            }
        }
        return out;
    }

    /** Orders formatted values as their type orders them. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Comparator<String> valueOrder(DataType type) {
        return (a, b) -> ((Comparable) type.parseValue(a)).compareTo(type.parseValue(b));
    }
}

package org.oooengine.optimizer.cost;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.stats.ColumnStatistics;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;
import org.oooengine.optimizer.stats.ClusterStatistics;

/**
 * What the cost models know of one table: its layout from the manifest (primary key, indexes and
 * their scope) and its statistics merged over the nodes.
 *
 * @param scale how many times the statistics' table this one stands for ({@link #scaledBy}): 1 for
 *              a table as measured
 */
public record TableFacts(StoreManifest.TableMeta meta, TableStatistics stats, int pageSize, double scale) {

    /** Up to this many distinct values a column's domain stays put when the table grows (nations, regions, segments, flags). */
    static final double FIXED_DOMAIN_VALUES = 64;

    public TableFacts(StoreManifest.TableMeta meta, TableStatistics stats, int pageSize) {
        this(meta, stats, pageSize, 1);
    }

    /**
     * This table as if it held {@code factor} times its rows, as TPC-H at a larger scale factor
     * does: rows and bytes of the tree and of every index multiply; a column's distinct values
     * multiply too when there are more than {@value #FIXED_DOMAIN_VALUES} of them (keys and foreign
     * keys, whose domains grow with the data), and stay put otherwise (nations, regions, segments, flags). Value ranges and
     * histograms keep their shape, so a range selects the same share.
     */
    public TableFacts scaledBy(double factor) {
        if (!(factor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + factor);
        }
        Map<String, Long> indexBytes = new LinkedHashMap<>();
        stats.indexBytes().forEach((k, v) -> indexBytes.put(k, Math.round(v * factor)));
        TableStatistics scaled = new TableStatistics(stats.table(), Math.round(stats.rows() * factor),
                Math.round(stats.bytes() * factor), stats.columns(), indexBytes);
        return new TableFacts(meta, scaled, pageSize, scale * factor);
    }

    /** Every table of a running cluster: the layout the nodes agree on, the statistics merged over the nodes. */
    public static Map<String, TableFacts> of(ClusterSession session) {
        return of(session.wholeManifest(), ClusterStatistics.collect(session, false));
    }

    /** The tables of {@code manifest} that {@code stats} has statistics of. */
    public static Map<String, TableFacts> of(StoreManifest manifest, Map<String, TableStatistics> stats) {
        Map<String, TableFacts> out = new LinkedHashMap<>();
        for (StoreManifest.TableMeta t : manifest.tables()) {
            TableStatistics s = stats.get(t.name());
            if (s != null) {
                out.put(t.name(), new TableFacts(t, s, manifest.pageSize()));
            }
        }
        return out;
    }

    /**
     * Every table of a cluster's node stores as read from their files, without the cluster running:
     * the first store's layout, the statistics each node kept at load merged per table.
     */
    public static Map<String, TableFacts> ofStores(List<java.nio.file.Path> storeDirs) {
        if (storeDirs.isEmpty()) {
            throw new IllegalArgumentException("no node stores to read statistics from");
        }
        StoreManifest manifest = StoreManifest.read(storeDirs.get(0));
        List<org.oooengine.core.stats.StoreStatistics> parts = storeDirs.stream()
                .map(d -> org.oooengine.core.stats.StoreStatistics.read(d).orElseThrow(() -> new IllegalStateException(
                        "store " + d + " has no statistics: run 'ooo analyze' on its cluster")))
                .toList();
        Map<String, TableFacts> out = new LinkedHashMap<>();
        for (StoreManifest.TableMeta t : manifest.tables()) {
            List<TableStatistics> partitions = parts.stream().map(p -> p.tables().get(t.name()))
                    .filter(java.util.Objects::nonNull).toList();
            if (partitions.isEmpty()) {
                continue;
            }
            List<DataType> types = t.columns().stream().map(c -> DataType.parse(c.type())).toList();
            out.put(t.name(), new TableFacts(t, org.oooengine.optimizer.stats.TableStatisticsMerger.merge(partitions, types,
                    org.oooengine.core.stats.StatisticsCollector.DEFAULT_BUCKETS), manifest.pageSize()));
        }
        return out;
    }

    public String name() {
        return meta.name();
    }

    public double rows() {
        return Math.max(1, stats.rows());
    }

    public double pages() {
        return Math.max(1, Math.ceil((double) stats.bytes() / pageSize));
    }

    public String primaryKeyLead() {
        return meta.primaryKey().get(0);
    }

    public DataType type(String column) {
        return meta.columns().stream().filter(c -> c.name().equals(column)).findFirst()
                .map(c -> DataType.parse(c.type()))
                .orElseThrow(() -> new IllegalArgumentException("table " + name() + " has no column " + column));
    }

    /** Values of a string column taken at random (empty for other columns, or statistics without samples). */
    public java.util.List<String> sample(String column) {
        return stats.column(column).sample();
    }

    /** Distinct values of a column; a primary key alone is unique whatever the sketch says. */
    public double distinct(String column) {
        if (meta.primaryKey().equals(List.of(column))) {
            return rows();
        }
        double measured = stats.column(column).distinctValues();
        double distinct = measured > FIXED_DOMAIN_VALUES ? measured * scale : measured;
        return Math.max(1, Math.min(rows(), distinct));
    }

    /** The index leading with {@code column}, if any. */
    public Optional<StoreManifest.IndexMeta> index(String column) {
        return meta.indexes() == null ? Optional.empty()
                : meta.indexes().stream().filter(i -> i.columns().get(0).equals(column)).findFirst();
    }

    /**
     * Whether an index join can probe this table by {@code column}: it leads the primary key (rows
     * live on the node its value hashes to) or a GLOBAL index (entries live where their value hashes to).
     */
    public boolean probeable(String column) {
        return primaryKeyLead().equals(column)
                || index(column).map(i -> i.scopeOrLocal() == IndexScope.GLOBAL).orElse(false);
    }

    /** Leaf pages of the index leading with {@code column}. */
    public double indexPages(String column) {
        StoreManifest.IndexMeta ix = index(column).orElseThrow();
        Long bytes = stats.indexBytes().get(ix.name());
        // statistics from before index sizes were kept: assume entries the size of a key and a primary key
        double b = bytes != null ? bytes : ix.entries() * 24.0;
        return Math.max(1, Math.ceil(b / pageSize));
    }

    /** Bytes of a key of the clustered tree: the primary key's columns. */
    public double primaryKeyBytes() {
        return meta.primaryKey().stream().mapToDouble(c -> width(type(c))).sum();
    }

    /** Bytes of a key of the index leading with {@code column}: its columns, then the primary key's. */
    public double indexKeyBytes(String column) {
        return index(column).orElseThrow().columns().stream().mapToDouble(c -> width(type(c))).sum() + primaryKeyBytes();
    }

    /** Bytes a value of a type takes in a written row; strings at half their declared length. */
    public static double width(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INT, DATE -> 4;
            case DECIMAL -> type.isWideDecimal() ? 16 : 8;
            case CHAR -> Math.max(1, type.precision());
            case VARCHAR -> 2 + Math.max(8, type.precision()) / 2.0;
            default -> 8;
        };
    }

    /** Bytes per row on disk, from the clustered tree's size. */
    public double rowBytes() {
        return stats.bytes() / rows();
    }

    /**
     * Fraction of rows in a range, from the equi-depth histogram where the column has one (rows
     * counted per bucket, linear inside the buckets the bounds cut), else from min and max; plus
     * one value's rows ({@link #closedRangeExtraValue}).
     */
    public double rangeFraction(ColumnRange range) {
        DataType type = type(range.column());
        ColumnStatistics c = stats.column(range.column());
        double low = numeric(type, type.format(range.low()));
        double high = numeric(type, type.format(range.high()));
        if (c.min() == null || high < low) {
            return 0;
        }
        double min = numeric(type, c.min());
        double max = numeric(type, c.max());
        if (high < min || low > max) {
            return 1 / rows();
        }
        List<ColumnStatistics.Bucket> h = c.histogram();
        double interpolated;
        if (h.isEmpty()) {
            interpolated = within(min, max, low, high);
        } else {
            double total = h.stream().mapToLong(ColumnStatistics.Bucket::rows).sum();
            double selected = 0;
            double lower = min;
            for (ColumnStatistics.Bucket b : h) {
                double upper = numeric(type, b.upper());
                selected += b.rows() * within(lower, upper, low, high);
                lower = upper;
            }
            interpolated = selected / total;
        }
        double nonNull = 1 - c.nulls() / rows();
        return Math.min(1, Math.max(1 / rows(), interpolated * nonNull + closedRangeExtraValue(c)));
    }

    /**
     * The share of one value's rows. Interpolation counts a span of width w over values spaced s
     * apart as w / s values, but a closed range whose bounds are values (as a range chosen from the
     * data is) holds w / s + 1 of them; the one more matters where the range is a few values wide.
     */
    private double closedRangeExtraValue(ColumnStatistics c) {
        return (1 - c.nulls() / rows()) / Math.max(1, c.distinctValues());
    }

    /** Rows in a range, read off the histogram ({@link #rangeFraction}): how planning estimates a driving range. */
    public long rangeRows(ColumnRange range) {
        return Math.round(rangeFraction(range) * rows());
    }

    /** Share of the value interval [lo, hi] that [low, high] covers; a single-value bucket counts whole or not at all. */
    private static double within(double lo, double hi, double low, double high) {
        if (hi <= lo) {
            return lo >= low && lo <= high ? 1 : 0;
        }
        double overlap = Math.min(hi, high) - Math.max(lo, low);
        return Math.max(0, Math.min(1, overlap / (hi - lo)));
    }

    /**
     * A value as a number for interpolation: numbers as they are, dates as days, timestamps as
     * microseconds, strings by their first characters.
     */
    static double numeric(DataType type, String text) {
        return switch (type.kind()) {
            case DATE -> java.time.LocalDate.parse(text).toEpochDay();
            case TIMESTAMP -> (Long) type.parseValue(text); // microseconds
            case BOOLEAN -> Boolean.parseBoolean(text) ? 1 : 0;
            case VARCHAR, CHAR -> {
                double v = 0;
                for (int i = 0; i < 6; i++) {
                    v = v * 256 + (i < text.length() ? Math.min(255, text.charAt(i)) : 0);
                }
                yield v;
            }
            default -> Double.parseDouble(text);
        };
    }
}

package org.oooengine.core.stats;

import com.dynatrace.hash4j.distinctcount.HyperLogLog;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.exec.FullScan;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * Collects a store's statistics: one sequential scan per table for row count, NULLs, min, max and
 * a HyperLogLog sketch per column, and for each column that leads an index an equi-depth histogram
 * read off the index's leaves, which are already in value order.
 */
public final class StatisticsCollector {
    /** HyperLogLog precision: 2^12 registers, ~1.6% standard error, 3 KiB of state per column. */
    static final int HLL_PRECISION = 12;
    /**
     * Buckets of an equi-depth histogram. Values often come in clumps narrower than a coarse
     * bucket — TPC-H's part prices put each dollar's 200 parts (at SF 1) within 20 cents of it —
     * and a bucket spreads its rows evenly over its span: with 128 buckets a range holding 0.1% of
     * the parts was estimated at 56 of its 200. At 4,096 (PostgreSQL allows 10,000) the ranges of
     * 10% to 0.01% that TableFactsTest holds are estimated within 0.75-1.25x of their rows; the
     * statistics grow by ~120 KB per indexed column.
     */
    public static final int DEFAULT_BUCKETS = 4096;
    private static final Hasher64 HASH = Hashing.komihash5_0();
    private static final Logger LOG = LogManager.getLogger(StatisticsCollector.class);

    private StatisticsCollector() {
    }

    /**
     * After a load: collects as {@link #collect(Store)} does, but a failure is only logged — the
     * loaded data stands, and {@code ooo analyze} can collect again — so it never undoes a load.
     */
    public static void collectAfterLoad(Store store) {
        collectAfterLoad(store, Optional.empty(), List.of());
    }

    /**
     * After a load that changed only {@code changed} tables: the other tables keep their
     * statistics from {@code previous}, so inserting into a small table does not rescan the large ones.
     */
    public static void collectAfterLoad(Store store, Optional<StoreStatistics> previous, List<String> changed) {
        try {
            StoreStatistics stats = collect(store, previous.map(StoreStatistics::tables).orElse(Map.of()), changed);
            LOG.info("collected statistics of {} tables in {} in {} s", stats.tables().size(), store.dir(),
                    String.format("%.1f", stats.seconds()));
        } catch (RuntimeException e) {
            LOG.warn("could not collect statistics of {} (run ooo analyze to retry): {}", store.dir(), e.getMessage(), e);
        }
    }

    /** Collects every table of {@code store} and writes them beside its manifest. */
    public static StoreStatistics collect(Store store) {
        return collect(store, Map.of(), List.of());
    }

    /** Collects {@code table} of {@code store} anew, the other tables keeping theirs from {@code kept}, and writes them all. */
    public static StoreStatistics collectAnew(Store store, StoreStatistics kept, String table) {
        return collect(store, kept.tables(), List.of(table));
    }

    private static StoreStatistics collect(Store store, Map<String, TableStatistics> kept, List<String> changed) {
        long t0 = System.nanoTime();
        Map<String, TableStatistics> tables = new LinkedHashMap<>();
        store.tables().forEach((name, table) -> {
            TableStatistics old = changed.contains(name) ? null : kept.get(name);
            tables.put(name, old != null ? old : collect(table, DEFAULT_BUCKETS));
        });
        StoreStatistics stats = StoreStatistics.of(tables, (System.nanoTime() - t0) / 1e9);
        stats.write(store.dir());
        return stats;
    }

    public static TableStatistics collect(Table table, int buckets) {
        Schema schema = table.schema();
        int n = schema.size();
        long[] nulls = new long[n];
        Object[] min = new Object[n];
        Object[] max = new Object[n];
        HyperLogLog[] sketches = new HyperLogLog[n];
        for (int c = 0; c < n; c++) {
            sketches[c] = HyperLogLog.create(HLL_PRECISION);
        }
        ValueSample[] samples = new ValueSample[n];
        boolean[] complex = new boolean[n];
        for (int c = 0; c < n; c++) {
            complex[c] = schema.type(c).isComplex();
            if (schema.type(c).isString()) {
                samples[c] = new ValueSample(table.name().hashCode() * 31L + c);
            }
        }
        long[] rows = {0};
        FullScan.run(table, row -> {
            rows[0]++;
            for (int c = 0; c < n; c++) {
                Object v = row[c];
                if (v == null) {
                    nulls[c]++;
                    continue;
                }
                if (complex[c]) {
                    // no order and no value hash: distinct arrays and maps counted by their text
                    sketches[c].add(HASH.hashCharsToLong(v.toString()));
                    continue;
                }
                if (min[c] == null || compare(v, min[c]) < 0) {
                    min[c] = v;
                }
                if (max[c] == null || compare(v, max[c]) > 0) {
                    max[c] = v;
                }
                sketches[c].add(hash(v));
                if (samples[c] != null) {
                    samples[c].add(v.toString());
                }
            }
        });
        List<ColumnStatistics> columns = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            DataType type = schema.type(c);
            String name = schema.columns().get(c).name();
            List<ColumnStatistics.Bucket> histogram = table.indexLeadingWith(name)
                    .map(ix -> histogram(ix, type, buckets)).orElse(List.of());
            columns.add(new ColumnStatistics(name, nulls[c], format(type, min[c]), format(type, max[c]),
                    Base64.getEncoder().encodeToString(sketches[c].getState()), histogram,
                    samples[c] == null ? List.of() : samples[c].values()));
        }
        long bytes = table.tree().meta().leafCount() * table.tree().meta().pageSize();
        Map<String, Long> indexBytes = new TreeMap<>();
        table.indexes().forEach((name, ix) -> indexBytes.put(name, ix.tree().meta().leafCount() * ix.tree().meta().pageSize()));
        return new TableStatistics(table.name(), rows[0], bytes, columns, indexBytes);
    }

    /** Equi-depth buckets over the index's leading column, read off its leaves in value order. */
    static List<ColumnStatistics.Bucket> histogram(SecondaryIndex ix, DataType type, int buckets) {
        long n = ix.tree().meta().entryCount();
        if (n == 0) {
            return List.of();
        }
        EquiDepthHistogram histogram = new EquiDepthHistogram(n, buckets, type);
        LeafScanner.forEachLeaf(ix.tree(), leaf -> {
            for (int i = 0; i < leaf.count(); i++) {
                histogram.add(ix.entryAt(leaf, i)[0]);
            }
        });
        return histogram.buckets();
    }

    static long hash(Object v) {
        if (v instanceof Long l) {
            return HASH.hashLongToLong(l);
        } else if (v instanceof Integer i) {
            return HASH.hashLongToLong(i);
        } else if (v instanceof String s) {
            return HASH.hashCharsToLong(s);
        } else if (v instanceof Double d) {
            return HASH.hashLongToLong(Double.doubleToLongBits(d));
        } else if (v instanceof Boolean b) {
            return HASH.hashLongToLong(b ? 1 : 0);
        } else if (v instanceof java.math.BigInteger wide) {
            // a wide decimal's unscaled value: one that fits a long hashes as that long would
            return wide.bitLength() < 64 ? HASH.hashLongToLong(wide.longValue()) : HASH.hashBytesToLong(wide.toByteArray());
        }
        throw new IllegalArgumentException("no hash for a " + v.getClass().getSimpleName());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }

    private static String format(DataType type, Object value) {
        return value == null ? null : type.format(value);
    }
}

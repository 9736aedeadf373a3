package org.oooengine.core.fragment;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.storage.Page;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A partition read by its primary key instead of whole, where a pipeline's first join probes the
 * key, or its leading columns, with few rows sent to it: TPC-DS Q72's 44 K catalog sales meet
 * 1.9 M customer demographics on {@code cd_demo_sk}, and each node looks up the keys it was sent
 * in its clustered tree rather than reading its 480 K rows; its inventory, keyed by day, item and
 * warehouse, is looked up by the days and items of those sales, five warehouses' rows each. The join itself runs as before over the rows
 * looked up, its filters and residual too, so the rows read only have to include every row with a
 * key among the build's; a probe row without a partner matters to none of the join kinds taken
 * here (inner, semi, and those that keep build rows).
 *
 * <p>The build rows are read first to count their keys; they are then handed to the pipeline from
 * here ({@link #builds}), as the source gives them once, in the chunks they came in: a build made
 * of column batches is not boxed into rows (TPC-H Q09's lines, whose order keys are too many to
 * look up, build the join with orders from their columns).
 */
final class KeyLookups {
    /**
     * A looked-up key is taken to cost this many rows read in key order (a descent through the
     * tree's pages, often a page read through the I/O threads), and each row it finds
     * {@link #ROWS_PER_ROW_FOUND} more (decoded a row at a time, where a scan decodes a group of
     * the columnar copy a column at a time): lookups pay when they cost less than the partition's
     * rows. Measured on TPC-H SF 1 (4 nodes), where lineitem's order keys find four rows each: at
     * 32 rows a key and a row per row found, Q03's 37 K orders per node (40 rows a key) looked up
     * their lineitems in 5.5 s where the scan takes 0.6 s; at 100 a key, Q04's 14 K (107 rows a
     * key) took 4.4 s against 0.4 s. TPC-DS's lookups that pay are of rarer keys finding a row
     * each: Q72's customer demographics (370 rows a key) and inventory (170 or more).
     */
    static final int ROWS_PER_LOOKUP = 75;
    /** What a row found by a lookup is taken to cost, in rows read in key order. */
    private static final int ROWS_PER_ROW_FOUND = 25;
    /** Prefixes of the key looked up to count their rows before the lookups are priced. */
    private static final int SAMPLED_PREFIXES = 32;
    /** Lookups in flight at once: each may wait for a page read. */
    private static final int IN_FLIGHT = 256;

    private final PipelineStep.HashJoin join;
    private final List<ColumnarRows.Chunk> buildChunks;
    private final List<byte[]> keys;

    private KeyLookups(PipelineStep.HashJoin join, List<ColumnarRows.Chunk> buildChunks, List<byte[]> keys) {
        this.join = join;
        this.buildChunks = buildChunks;
        this.keys = keys;
    }

    /**
     * The lookups that read {@code table}'s partition for {@code spec}, its first join's build rows
     * read from {@code builds}; null when the pipeline does not start with such a join (then
     * nothing was read).
     */
    static KeyLookups of(Table table, ScanPipeline spec, Pipeline.BuildSource builds) {
        PipelineStep.HashJoin join = leadingJoin(spec);
        if (join == null) {
            return null;
        }
        // the leading columns of the primary key that the join probes: the prefix each build row looks up
        int[] key = table.primaryKeyPositions();
        int prefix = 0;
        while (prefix < key.length && join.probeKeys().contains(key[prefix])
                && lookedUpBy(table.schema().type(key[prefix]))) {
            prefix++;
        }
        if (prefix == 0 || table.rows() < (long) ROWS_PER_LOOKUP * 8) {
            return null;
        }
        DataType[] types = new DataType[prefix];
        int[] buildKeys = new int[prefix];
        for (int i = 0; i < prefix; i++) {
            types[i] = table.schema().type(key[i]);
            buildKeys[i] = join.buildKeys().get(join.probeKeys().indexOf(key[i]));
        }
        List<ColumnarRows.Chunk> chunks = new ArrayList<>();
        builds.read(join.build(), chunks::add);
        TreeSet<byte[]> distinct = new TreeSet<>(Arrays::compareUnsigned);
        KeyCodec codec = new KeyCodec(types);
        Object[] values = new Object[prefix];
        for (ColumnarRows.Chunk chunk : chunks) {
            rows:
            for (int r = 0; r < chunk.size() && distinct.size() * (long) ROWS_PER_LOOKUP < table.rows(); r++) {
                for (int i = 0; i < prefix; i++) {
                    values[i] = stored(chunk.value(r, buildKeys[i]), types[i]);
                    if (values[i] == NO_KEY) {
                        return new KeyLookups(join, chunks, null); // a key of another type: read the partition whole
                    }
                    if (values[i] == null) {
                        continue rows; // no row's key equals a null
                    }
                }
                distinct.add(codec.encodePrefix(values, prefix));
            }
        }
        List<byte[]> keys = new ArrayList<>(distinct);
        double perKey = prefix == key.length ? 1 : rowsPerPrefix(table, keys);
        boolean pays = keys.size() * (ROWS_PER_LOOKUP + perKey * ROWS_PER_ROW_FOUND) < table.rows();
        return new KeyLookups(join, chunks, pays ? keys : null);
    }

    /**
     * The rows a prefix of the key is estimated to find, from a sample of {@code keys} looked up
     * (counted, not read): the rows of TPC-DS Q72's inventory of an item on a day are its five
     * warehouses', those of a day alone ninety thousand.
     */
    private static double rowsPerPrefix(Table table, List<byte[]> keys) {
        if (keys.isEmpty()) {
            return 1;
        }
        int step = Math.max(1, keys.size() / SAMPLED_PREFIXES);
        java.util.concurrent.atomic.AtomicLong found = new java.util.concurrent.atomic.AtomicLong();
        List<CompletableFuture<Void>> counts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += step) {
            long[] here = {0};
            counts.add(table.tree().scan(keys.get(i), KeyCodec.successor(keys.get(i)), (Page leaf, int slot) -> {
                found.incrementAndGet();
                return ++here[0] < table.rows() / ROWS_PER_LOOKUP; // enough to say lookups do not pay
            }));
        }
        CompletableFuture.allOf(counts.toArray(CompletableFuture[]::new)).join();
        return Math.max(1, (double) found.get() / counts.size());
    }

    /** Whether the keys are few enough to look up; else the partition is read whole as before. */
    boolean pay() {
        return keys != null;
    }

    /** {@code builds}, with the first join's rows, which were read here, given from here. */
    Pipeline.BuildSource builds(Pipeline.BuildSource builds) {
        return (build, out) -> {
            if (build == join.build()) {
                buildChunks.forEach(out);
            } else {
                builds.read(build, out);
            }
        };
    }

    /**
     * Looks every key up in {@code table}'s tree and hands {@code out} the rows found, a batch at a
     * time, as the leaf scan makes them: the {@code needed} columns as SQL values of {@code types}.
     * Returns how many rows were found.
     */
    long forEachBatch(Table table, RowCodec codec, int width, int[] needed, SqlType[] types,
                      Consumer<List<Object[]>> out, BooleanSupplier cancelled) {
        boolean[] wanted = new boolean[table.schema().size()];
        for (int c : needed) {
            wanted[c] = true;
        }
        long found = 0;
        for (int from = 0; from < keys.size(); from += IN_FLIGHT) {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            List<Object[]> batch = new ArrayList<>();
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (byte[] key : keys.subList(from, Math.min(keys.size(), from + IN_FLIGHT))) {
                reads.add(table.tree().scan(key, KeyCodec.successor(key), (Page leaf, int slot) -> {
                    Object[] row = leaf.decodeValue(slot, codec, wanted);
                    if (row.length != width) {
                        row = Arrays.copyOf(row, width);
                    }
                    for (int c : needed) {
                        row[c] = types[c].fromStored(row[c]);
                    }
                    synchronized (batch) {
                        batch.add(row);
                    }
                    return true;
                }));
            }
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).join();
            found += batch.size();
            out.accept(batch);
        }
        return found;
    }

    int keys() {
        return keys.size();
    }

    /** The join right after the pipeline's leading filters, when a probe row without a partner matters to none of its output. */
    private static PipelineStep.HashJoin leadingJoin(ScanPipeline spec) {
        for (PipelineStep step : spec.steps()) {
            if (step instanceof PipelineStep.Filter) {
                continue;
            }
            if (step instanceof PipelineStep.HashJoin j && unmatchedProbesDropped(j.kind())
                    && (j.build() instanceof JoinBuild.Rows || j.build() instanceof JoinBuild.Staged
                    || j.build() instanceof JoinBuild.Exchanged || j.build() instanceof JoinBuild.Local)) {
                return j;
            }
            return null;
        }
        return null;
    }

    private static boolean unmatchedProbesDropped(JoinKind kind) {
        return kind == JoinKind.INNER || kind == JoinKind.SEMI || kind == JoinKind.RIGHT
                || kind == JoinKind.RIGHT_SEMI || kind == JoinKind.RIGHT_ANTI;
    }

    private static boolean lookedUpBy(DataType type) {
        return switch (type.kind()) {
            case INT, BIGINT, DATE -> true;
            default -> false;
        };
    }

    private static final Object NO_KEY = new Object();

    /** A build key as the tree stores the column's values: null for one no row can equal, NO_KEY for another type's. */
    private static Object stored(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case INT -> value instanceof Integer || value instanceof Long
                    ? (((Number) value).longValue() == ((Number) value).intValue() ? (Object) ((Number) value).intValue() : null)
                    : NO_KEY;
            case BIGINT -> value instanceof Integer || value instanceof Long ? (Object) ((Number) value).longValue() : NO_KEY;
            case DATE -> value instanceof LocalDate d ? (Object) (int) d.toEpochDay() : NO_KEY;
            default -> NO_KEY;
        };
    }
}

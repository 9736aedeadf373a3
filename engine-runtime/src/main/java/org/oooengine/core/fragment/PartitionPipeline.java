package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.ChunkBatches;
import org.oooengine.core.vector.GatheredRows;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.wire.ColumnarRows;

/**
 * Runs a {@link ScanPipeline} over this node's partition of its table: reads its columnar copy,
 * or else the leaves in key order (those of the {@link KeyRange} its filter allows), the needed
 * columns of each row decoded, and feeds the pipeline a batch of vectors at a time (rows of SQL
 * values only where a needed column's type has no vector: arrays and maps). Stops with a
 * {@link CancellationException} between batches once {@code cancelled}.
 */
public final class PartitionPipeline {
    private PartitionPipeline() {
    }

    /**
     * What a run did: rows read (from the partition, or sent to it), rows sent on, its wall time,
     * the most its operators held in memory at once, the bytes and rows they spilled to disk, and
     * the bytes it sent on: to other nodes for a shuffle's producer (a node's own rows do not cross
     * the network), to the requester otherwise; and the rows a partial aggregate sent on ungrouped
     * once grouping them barely reduced them; for a table held in files, the bytes read from them,
     * the bytes of their columns read instead from the node's cache of them, and how it went
     * through their splits. Figures are never negative.
     */
    public record Summary(long rowsScanned, long rowsOut, long nanos, long peakMemoryBytes, long spilledBytes,
                          long spilledRows, long bytesOut, long rowsUngrouped, long bytesRead, long bytesCached,
                          SplitFigures splits) {
        public Summary {
            if (rowsScanned < 0 || rowsOut < 0 || nanos < 0 || peakMemoryBytes < 0 || spilledBytes < 0 || spilledRows < 0
                    || bytesOut < 0 || rowsUngrouped < 0 || bytesRead < 0 || bytesCached < 0) {
                throw new IllegalArgumentException("negative figures in " + this);
            }
            splits = splits == null ? SplitFigures.NONE : splits;
        }

        /** As above, no split of files read. */
        public Summary(long rowsScanned, long rowsOut, long nanos, long peakMemoryBytes, long spilledBytes,
                       long spilledRows, long bytesOut, long rowsUngrouped, long bytesRead, long bytesCached) {
            this(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut, rowsUngrouped, bytesRead,
                    bytesCached, SplitFigures.NONE);
        }

        /** As above, nothing read from a cache of files. */
        public Summary(long rowsScanned, long rowsOut, long nanos, long peakMemoryBytes, long spilledBytes,
                       long spilledRows, long bytesOut, long rowsUngrouped, long bytesRead) {
            this(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut, rowsUngrouped, bytesRead, 0);
        }

        /** As above, no file read (a partition's rows are in the node's store). */
        public Summary(long rowsScanned, long rowsOut, long nanos, long peakMemoryBytes, long spilledBytes,
                       long spilledRows, long bytesOut, long rowsUngrouped) {
            this(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut, rowsUngrouped, 0);
        }

        /** As above, every row grouped where a partial aggregate ran. */
        public Summary(long rowsScanned, long rowsOut, long nanos, long peakMemoryBytes, long spilledBytes,
                       long spilledRows, long bytesOut) {
            this(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut, 0);
        }

        /** A run's rows and time with what {@code memory} (the run's own) held at most and spilled. */
        public static Summary of(long rowsScanned, long rowsOut, long nanos, QueryMemory memory) {
            return new Summary(rowsScanned, rowsOut, nanos, memory.peakBytes(), memory.spilledBytes(),
                    memory.spilledRows(), 0);
        }

        public Summary withBytesOut(long bytes) {
            return new Summary(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytes, rowsUngrouped,
                    bytesRead, bytesCached, splits);
        }

        public Summary withRowsUngrouped(long rows) {
            return new Summary(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut, rows,
                    bytesRead, bytesCached, splits);
        }

        /** As this, with {@code bytes} read from files (a table held in files). */
        public Summary withBytesRead(long bytes) {
            return withBytesRead(bytes, bytesCached);
        }

        /** As this, with {@code bytes} read from files and {@code cached} from the node's cache of them. */
        public Summary withBytesRead(long bytes, long cached) {
            return new Summary(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut,
                    rowsUngrouped, bytes, cached, splits);
        }

        /** As this, with what its source did with the splits of files it read. */
        public Summary withSplits(SplitFigures figures) {
            return new Summary(rowsScanned, rowsOut, nanos, peakMemoryBytes, spilledBytes, spilledRows, bytesOut,
                    rowsUngrouped, bytesRead, bytesCached, figures);
        }
    }

    /**
     * How a node went through the splits of files it read (seed 003's questions): how many it
     * read, how many of them it took from another node's queue, how many did not start where its
     * previous read of the same file ended (a seek: the reads that became random), and the time it
     * waited on other nodes' answers to hand it a split (synchronous request/response pairs); and
     * of the groups of rows in them (Parquet row groups, ORC stripes) whose statistics the scan's
     * filters were judged against, how many were skipped unread.
     */
    public record SplitFigures(long read, long taken, long seeks, long waitNanos, long groups, long groupsSkipped) {
        public static final SplitFigures NONE = new SplitFigures(0, 0, 0, 0, 0, 0);

        public SplitFigures {
            if (read < 0 || taken < 0 || seeks < 0 || waitNanos < 0 || groups < 0 || groupsSkipped < 0
                    || groupsSkipped > groups) {
                throw new IllegalArgumentException("split figures out of range " + read + ", " + taken + ", " + seeks
                        + ", " + waitNanos + ", " + groups + ", " + groupsSkipped);
            }
        }

        public SplitFigures plus(SplitFigures o) {
            return new SplitFigures(read + o.read, taken + o.taken, seeks + o.seeks, waitNanos + o.waitNanos,
                    groups + o.groups, groupsSkipped + o.groupsSkipped);
        }
    }

    /**
     * Runs {@code spec} over this node's partition of its table, {@code tables} giving the node's
     * tables by name and {@code sent} the rows other members sent ahead (staged broadcast rows,
     * shuffled rows); a join built from another local table runs that table's pipeline first.
     */
    public static Summary run(Function<String, Table> tables, Pipeline.BuildSource sent, ScanPipeline spec,
                              Consumer<List<Object[]>> out, BooleanSupplier cancelled) {
        return run(tables, sent, spec, out, cancelled, QueryMemory.unbounded());
    }

    /** As above, what its joins and aggregates hold reserved from {@code memory}. */
    public static Summary run(Function<String, Table> tables, Pipeline.BuildSource sent, ScanPipeline spec,
                              Consumer<List<Object[]>> rowsOut, BooleanSupplier cancelled, QueryMemory memory) {
        return run(tables, name -> null, sent, spec, rowsOut, cancelled, memory);
    }

    /**
     * A table's rows from outside the node's store, e.g. a transactional table's read within a
     * transaction: stored values in the table's column order, a page at a time, in key order.
     */
    public interface RowSource {
        Schema schema();

        /** Hands {@code page} the rows a page at a time until it returns false or the rows run out. */
        void forEachPage(java.util.function.Predicate<List<Object[]>> page);

        /**
         * As above, the columns not {@code wanted} perhaps left null: a source that decodes column
         * by column (a file's) decodes only those the pipeline reads.
         */
        default void forEachPage(boolean[] wanted, java.util.function.Predicate<List<Object[]>> page) {
            forEachPage(page);
        }

        /** The bytes this source read from files so far; 0 for one that reads none. */
        default long bytesRead() {
            return 0;
        }

        /** The bytes of files' columns this source read so far from a cache of them instead of the files. */
        default long bytesCached() {
            return 0;
        }

        /** How it went through the splits of files it read so far; none for a source that reads no files. */
        default SplitFigures splits() {
            return SplitFigures.NONE;
        }
    }

    /**
     * A source that decodes column by column (a table's files): its rows come as batches of
     * vectors, as {@code StoredVectors} holds stored values, so that the steps run on vectors.
     */
    public interface BatchSource extends RowSource {
        /**
         * Hands {@code batch} the rows until it returns false or the rows run out: a vector per
         * column of the schema, null for those not {@code wanted}. A group of rows (a row group, a
         * stripe) whose ranges {@code skip} accepts need not be read.
         */
        void forEachBatch(boolean[] wanted, GroupFilter skip,
                          java.util.function.Predicate<Batch> batch);
    }

    /**
     * As above, the tables {@code outside} gives a source of (not null) read from it rather than
     * from {@code tables}.
     */
    public static Summary run(Function<String, Table> tables, Function<String, RowSource> outside,
                              Pipeline.BuildSource sent, ScanPipeline spec, Consumer<List<Object[]>> rowsOut,
                              BooleanSupplier cancelled, QueryMemory memory) {
        ScanPipeline shared = RepeatedBuilds.withEqualRowsShared(spec);
        RepeatedBuilds repeated = RepeatedBuilds.of(shared, memory);
        try {
            return run(tables, outside, sent, shared, rowsOut, cancelled, memory, repeated);
        } finally {
            repeated.close();
        }
    }

    private static Summary run(Function<String, Table> tables, Function<String, RowSource> outside,
                               Pipeline.BuildSource sent, ScanPipeline spec, Consumer<List<Object[]>> rowsOut,
                               BooleanSupplier cancelled, QueryMemory memory, RepeatedBuilds repeated) {
        long t0 = System.nanoTime();
        FirstRows limited = FirstRows.of(spec, rowsOut);
        Consumer<List<Object[]>> out = limited == null ? rowsOut : limited;
        RowSource source = outside.apply(spec.table());
        Table table = source == null ? tables.apply(spec.table()) : null;
        Schema schema = source != null ? source.schema() : table.schema();
        if (spec.width() > schema.size()) {
            throw new IllegalArgumentException("table " + spec.table() + " has " + schema.size() + " columns here, not "
                    + spec.width());
        }
        boolean[] wanted = new boolean[schema.size()];
        SqlType[] types = new SqlType[spec.width()];
        int[] needed = spec.columns().stream().toArray();
        for (int c : needed) {
            wanted[c] = true;
            types[c] = SqlType.of(schema.type(c));
        }
        Pipeline.BuildSource builds = (build, chunks) -> {
            if (build instanceof JoinBuild.Local local) {
                repeated.read(local.pipeline(), chunks, to -> {
                    BuildChunks gathered = new BuildChunks(to);
                    run(tables, outside, sent, local.pipeline(), gathered, cancelled, memory, repeated);
                    gathered.flush();
                });
            } else if (build instanceof JoinBuild.Rows r) {
                chunks.accept(r.chunk());
            } else {
                sent.read(build, chunks);
            }
        };
        BooleanSupplier enough = limited == null ? () -> false : limited::enough;
        if (source == null) {
            KeyLookups lookups = KeyLookups.of(table, spec, builds);
            if (lookups != null) {
                builds = lookups.builds(builds);
                if (lookups.pay()) {
                    return lookedUp(table, lookups, spec, types, builds, out, cancelled, enough, memory, t0);
                }
            }
            if (table.columnar().isPresent() && java.util.Arrays.stream(needed).allMatch(table.columnar().get()::holds)) {
                return scanColumns(table.columnar().get(), spec, types, builds, out, cancelled, enough, memory, t0);
            }
            // leaves are in key order: read only those that can hold the key range the filters allow
            source = new TreeRows(table, KeyRange.of(table, spec));
        }
        if (java.util.Arrays.stream(needed).allMatch(c -> StoredVectors.holds(schema.type(c)))) {
            BatchSource batches = source instanceof BatchSource b ? b : gathered(source);
            return scanBatches(batches, wanted, spec, types, builds, out, cancelled, enough, memory, t0);
        }
        return scanSource(source, wanted, spec, types, builds, out, cancelled, enough, memory, t0);
    }

    /**
     * A build pipeline's output as chunks: its batches as columns, so that the hash table is made
     * from them without a value boxed into rows and back, gathered into chunks of up to
     * {@link #ROWS} rows. A selective pipeline lets a few rows of each batch out (TPC-H Q09's lines
     * of green parts, one in twenty): a chunk each would be held, counted and joined into one
     * again, a thousand small ones per node, costing more than the rows in them.
     */
    private static final class BuildChunks implements BatchSink {
        static final int ROWS = 16 * Pipeline.BATCH_ROWS;
        private final Consumer<ColumnarRows.Chunk> to;
        private GatheredRows pending;

        BuildChunks(Consumer<ColumnarRows.Chunk> to) {
            this.to = to;
        }

        @Override
        public synchronized void accept(List<Object[]> rows) {
            flush();
            to.accept(ColumnarRows.Chunk.ofRows(rows));
        }

        @Override
        public synchronized void acceptBatch(Batch batch, SqlType[] types) {
            if (pending != null && !pending.fits(batch)) {
                flush();
            }
            if (pending == null) {
                pending = new GatheredRows(batch, types, Math.max(ROWS, batch.size()));
            }
            pending.add(batch, batch.positions(), batch.size());
            if (pending.size() >= ROWS) {
                flush();
            }
        }

        /** Hands on the rows gathered so far. */
        synchronized void flush() {
            if (pending != null && pending.size() > 0) {
                to.accept(pending.toChunk());
            }
            pending = null;
        }
    }

    /** Runs the steps over the rows of the partition whose keys the first join's build rows hold. */
    private static Summary lookedUp(Table table, KeyLookups lookups, ScanPipeline spec, SqlType[] types,
                                    Pipeline.BuildSource builds, Consumer<List<Object[]>> out, BooleanSupplier cancelled,
                                    BooleanSupplier enough, QueryMemory memory, long t0) {
        Counted counted = new Counted(spec, types, builds, out, cancelled, enough, memory);
        long rowsIn = lookups.forEachBatch(table, new RowCodec(table.schema()), spec.width(),
                spec.columns().stream().toArray(), types, counted.pipeline::acceptRows, cancelled);
        return counted.finish(rowsIn, t0);
    }

    /** Runs the steps over a source's pages of rows, the needed columns as SQL values. */
    private static Summary scanSource(RowSource source, boolean[] wanted, ScanPipeline spec, SqlType[] types,
                                      Pipeline.BuildSource builds,
                                      Consumer<List<Object[]>> out, BooleanSupplier cancelled, BooleanSupplier enough,
                                      QueryMemory memory, long t0) {
        Pipeline pipeline = new Pipeline(spec.steps(), spec.width(), builds, out, memory);
        pipeline.stopWhen(stopping(cancelled, () -> false));
        int[] needed = spec.columns().stream().toArray();
        source.forEachPage(wanted, page -> {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            List<Object[]> batch = new ArrayList<>(page.size());
            for (Object[] stored : page) {
                Object[] row = new Object[spec.width()];
                for (int c : needed) {
                    row[c] = types[c].fromStored(stored[c]);
                }
                batch.add(row);
            }
            pipeline.accept(batch);
            return !enough.getAsBoolean();
        });
        pipeline.finish();
        return Summary.of(pipeline.rowsIn(), pipeline.rowsOut(), System.nanoTime() - t0, memory)
                .withRowsUngrouped(pipeline.rowsUngrouped()).withBytesRead(source.bytesRead(), source.bytesCached())
                .withSplits(source.splits());
    }

    /**
     * A source of pages of rows as batches of vectors: pages gathered up to a batch's rows
     * ({@link Pipeline#BATCH_ROWS}; a B+tree leaf holds a few dozen rows) before they become one.
     */
    static BatchSource gathered(RowSource source) {
        return new BatchSource() {
            @Override
            public Schema schema() {
                return source.schema();
            }

            @Override
            public void forEachPage(java.util.function.Predicate<List<Object[]>> page) {
                source.forEachPage(page);
            }

            @Override
            public void forEachBatch(boolean[] wanted, GroupFilter skip, java.util.function.Predicate<Batch> batch) {
                List<Object[]> pending = new ArrayList<>(Pipeline.BATCH_ROWS);
                boolean[] going = {true};
                source.forEachPage(wanted, page -> {
                    pending.addAll(page);
                    if (pending.size() >= Pipeline.BATCH_ROWS) {
                        going[0] = batch.test(StoredVectors.batch(pending, source.schema(), wanted));
                        pending.clear();
                    }
                    return going[0];
                });
                if (going[0] && !pending.isEmpty()) {
                    batch.test(StoredVectors.batch(pending, source.schema(), wanted));
                }
            }

            @Override
            public long bytesRead() {
                return source.bytesRead();
            }
        };
    }

    /** Runs the steps over a source's batches of vectors, the groups of rows the leading filters exclude skipped. */
    private static Summary scanBatches(BatchSource source, boolean[] wanted, ScanPipeline spec, SqlType[] types,
                                       Pipeline.BuildSource builds, Consumer<List<Object[]>> out,
                                       BooleanSupplier cancelled, BooleanSupplier enough, QueryMemory memory, long t0) {
        Counted counted = new Counted(spec, types, builds, out, cancelled, enough, memory);
        ZoneMaps zones = ZoneMaps.of(spec.steps(), types, counted.pipeline::buildRows);
        boolean wide = anyWideDecimal(spec, types);
        long[] rowsIn = {0};
        source.forEachBatch(wanted, zones.asFilter(), batch -> {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            Vector[] columns = new Vector[spec.width()];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = batch.column(c);
            }
            Batch scanned = batch.withColumns(columns);
            rowsIn[0] += scanned.size();
            if (wide) {
                counted.pipeline.acceptRows(scanned.toRows(types));
            } else {
                counted.pipeline.accept(scanned);
            }
            return !enough.getAsBoolean();
        });
        return counted.finish(rowsIn[0], t0).withBytesRead(source.bytesRead(), source.bytesCached())
                .withSplits(source.splits());
    }

    /** Whether a needed column is a wide decimal, held as BigDecimals, which no long vector does: such batches go in as rows. */
    private static boolean anyWideDecimal(ScanPipeline spec, SqlType[] types) {
        return spec.columns().stream().anyMatch(c -> types[c] != null && types[c].kind() == SqlType.Kind.DECIMAL
                && types[c].precision() > DataType.MAX_LONG_DECIMAL_PRECISION);
    }

    /**
     * Reads the partition's columnar copy a group (one batch) at a time, only the needed columns and
     * only the groups the leading filters' bounds allow, and runs the steps on the batches.
     */
    private static Summary scanColumns(ColumnarFile file, ScanPipeline spec, SqlType[] types, Pipeline.BuildSource builds,
                                       Consumer<List<Object[]>> out, BooleanSupplier cancelled, BooleanSupplier enough,
                                       QueryMemory memory, long t0) {
        Counted counted = new Counted(spec, types, builds, out, cancelled, enough, memory);
        VectorPipeline pipeline = counted.pipeline;
        ZoneMaps zones = ZoneMaps.of(spec.steps(), types, pipeline::buildRows);
        int[] needed = spec.columns().stream().toArray();
        boolean wide = anyWideDecimal(spec, types);
        long rowsIn = 0;
        for (int g = 0; g < file.groups() && !enough.getAsBoolean(); g++) {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            if (zones.excludes(file, g)) {
                continue;
            }
            Vector[] columns = new Vector[spec.width()];
            for (int c : needed) {
                columns[c] = file.read(g, c);
            }
            int rows = file.rows(g);
            rowsIn += rows;
            if (wide) {
                pipeline.acceptRows(Batch.of(columns, rows).toRows(types));
            } else {
                pipeline.accept(Batch.of(columns, rows));
            }
        }
        return counted.finish(rowsIn, t0);
    }

    /**
     * Steps to run over rows that arrive from elsewhere (an exchange's shuffled rows): on column
     * batches where the values fit vectors (the types of the columns the steps read), else row by
     * row, as a partition's pipeline runs.
     */
    public static final class OverRows {
        private final ScanPipeline spec;
        private final Pipeline.BuildSource builds;
        private final QueryMemory memory;
        private final CountingSink counted;
        /** Made at the first chunk, whose columns tell the types of the join keys; null until then. */
        private VectorPipeline pipeline;
        /** The types of the columns the steps read; null for the others. */
        private SqlType[] inputTypes;
        private BooleanSupplier stop;
        private long rowsIn;

        public OverRows(ScanPipeline spec, Pipeline.BuildSource builds, Consumer<List<Object[]>> out, QueryMemory memory) {
            this.spec = spec;
            this.builds = builds;
            this.memory = memory;
            this.counted = new CountingSink(out);
        }

        /** Has the joins stop making rows once {@code stop} says so, or throw from it (cancelled). */
        public void stopWhen(BooleanSupplier stop) {
            this.stop = stop;
        }

        /** A chunk as it arrived: a batch straight from its columns where they are of the types read, else its rows. */
        public void accept(ColumnarRows.Chunk chunk) {
            rowsIn += chunk.size();
            started(chunk);
            Batch batch = ChunkBatches.of(chunk, inputTypes);
            if (batch != null) {
                pipeline.accept(batch);
            } else {
                pipeline.acceptRows(chunk.rows());
            }
        }

        /**
         * The pipeline, made at the first chunk: the steps name the types of the columns they read
         * in expressions, but not of a join's keys, which only the rows tell (integers or dates,
         * as the wire held them); a join that knows them runs on batches, not row by row.
         */
        private void started(ColumnarRows.Chunk first) {
            if (pipeline != null) {
                return;
            }
            inputTypes = VectorPipeline.typesRead(spec.steps(), 0, spec.width());
            if (first != null && first.columns() != null) {
                for (int c : VectorPipeline.laterJoinKeys(spec.steps(), 0)) {
                    if (c < inputTypes.length && c < first.columns().length && inputTypes[c] == null) {
                        inputTypes[c] = VectorPipeline.keyType(first.columns()[c]);
                    }
                }
            }
            pipeline = new VectorPipeline(spec.steps(), inputTypes, builds, counted, memory);
            if (stop != null) {
                pipeline.stopWhen(stop);
            }
        }

        public void finish() {
            started(null);
            pipeline.finish();
        }

        public long rowsIn() {
            return rowsIn;
        }

        /** The steps run row by row (none where every one runs on batches). */
        int rowSteps() {
            started(null);
            return pipeline.rowSteps();
        }

        public long rowsOut() {
            return counted.rowsOut;
        }

        /** The rows a partial aggregate among its steps sent on ungrouped ({@link Summary#rowsUngrouped}). */
        public long rowsUngrouped() {
            started(null);
            return pipeline.rowsUngrouped();
        }
    }

    /**
     * Steps over rows of SQL values of known types that arrive from elsewhere a batch at a time
     * (an index join's output): on column batches where the values fit vectors, row by row where a
     * step or a value does not.
     */
    public static final class OverTypedRows {
        private final VectorPipeline pipeline;

        /** {@code types}: per column of the rows its type; {@code stop}: when the joins stop making rows, or throw (cancelled). */
        public OverTypedRows(List<PipelineStep> steps, List<SqlType> types, Pipeline.BuildSource builds,
                             Consumer<List<Object[]>> out, QueryMemory memory, BooleanSupplier stop) {
            SqlType[] held = types.stream().map(t -> Vector.representation(t) == null ? null : t).toArray(SqlType[]::new);
            this.pipeline = new VectorPipeline(steps, held, builds, out, memory);
            pipeline.stopWhen(stop);
        }

        public void accept(List<Object[]> rows) {
            pipeline.acceptRows(rows);
        }

        public void finish() {
            pipeline.finish();
        }
    }

    /** Hands a pipeline's rows and batches on to {@code out} (batches as they are where it takes them), counting them. */
    private static final class CountingSink implements BatchSink {
        private final Consumer<List<Object[]>> out;
        private long rowsOut;

        CountingSink(Consumer<List<Object[]>> out) {
            this.out = out;
        }

        @Override
        public void accept(List<Object[]> rows) {
            rowsOut += rows.size();
            out.accept(rows);
        }

        @Override
        public void acceptBatch(Batch batch, SqlType[] columnTypes) {
            rowsOut += batch.size();
            BatchSink.send(out, batch, columnTypes);
        }
    }

    /** A vector pipeline over a partition's batches that counts the rows it sends on. */
    private static final class Counted {
        final VectorPipeline pipeline;
        private final QueryMemory memory;
        private final CountingSink counted;

        Counted(ScanPipeline spec, SqlType[] types, Pipeline.BuildSource builds, Consumer<List<Object[]>> out,
                BooleanSupplier cancelled, BooleanSupplier enough, QueryMemory memory) {
            this.memory = memory;
            this.counted = new CountingSink(out);
            this.pipeline = new VectorPipeline(spec.steps(), types, builds, counted, memory);
            pipeline.stopWhen(stopping(cancelled, enough));
        }

        /** Ends the pipeline; what it did, given the {@code rowsIn} read since {@code t0}. */
        Summary finish(long rowsIn, long t0) {
            pipeline.finish();
            return Summary.of(rowsIn, counted.rowsOut, System.nanoTime() - t0, memory)
                    .withRowsUngrouped(pipeline.rowsUngrouped());
        }
    }

    /**
     * When a pipeline's joins stop making rows: once {@code enough} came out; throws once
     * {@code cancelled}.
     */
    private static BooleanSupplier stopping(BooleanSupplier cancelled, BooleanSupplier enough) {
        return () -> {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            return enough.getAsBoolean();
        };
    }

    /**
     * What a pipeline ending in a {@link PipelineStep.Limit} sends, counted: once its rows came
     * out, the scan stops.
     */
    private static final class FirstRows implements Consumer<List<Object[]>> {
        private final long count;
        private final Consumer<List<Object[]>> out;
        private long sent;

        private FirstRows(long count, Consumer<List<Object[]>> out) {
            this.count = count;
            this.out = out;
        }

        static FirstRows of(ScanPipeline spec, Consumer<List<Object[]>> out) {
            List<PipelineStep> steps = spec.steps();
            return !steps.isEmpty() && steps.get(steps.size() - 1) instanceof PipelineStep.Limit l
                    ? new FirstRows(l.count(), out) : null;
        }

        @Override
        public synchronized void accept(List<Object[]> rows) {
            sent += rows.size();
            out.accept(rows);
        }

        synchronized boolean enough() {
            return sent >= count;
        }
    }
}

package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.exec.PartitionRouter.Entry;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.vector.GatheredRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.ExprCodec;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/** Payloads of the cluster operations: how each request and answer is laid out, in one place. */
final class Messages {
    /** Index name on the wire for the clustered tree. */
    static final String CLUSTERED = "";

    private Messages() {
    }

    /** A lookup: the keys in [from, to) of an index, at most {@code limit}; {@code to} empty = unbounded. */
    record Lookup(String table, String index, byte[] from, byte[] to, int limit) {
    }

    static byte[] pointLookup(String table, String index, byte[] prefix) {
        return new PayloadWriter(32 + prefix.length).putString(table).putString(index == null ? CLUSTERED : index)
                .putBytes(prefix).toByteArray();
    }

    static byte[] rangeLookup(String table, String index, byte[] from, byte[] to, int limit) {
        return new PayloadWriter(48 + from.length).putString(table).putString(index == null ? CLUSTERED : index)
                .putBytes(from).putBytes(to == null ? new byte[0] : to).putVarInt(limit).toByteArray();
    }

    static Lookup readPointLookup(PayloadReader r) {
        String table = r.getString();
        String index = r.getString();
        byte[] prefix = r.getBytes();
        return new Lookup(table, index, prefix, org.oooengine.core.types.KeyCodec.successor(prefix), Integer.MAX_VALUE);
    }

    static Lookup readRangeLookup(PayloadReader r) {
        String table = r.getString();
        String index = r.getString();
        byte[] from = r.getBytes();
        byte[] to = r.getBytes();
        return new Lookup(table, index, from, to.length == 0 ? null : to, r.getVarInt());
    }

    static byte[] entries(List<Entry> entries) {
        PayloadWriter w = new PayloadWriter(16 + entries.size() * 64);
        w.putVarInt(entries.size());
        for (Entry e : entries) {
            w.putBytes(e.key()).putBytes(e.value());
        }
        return w.toByteArray();
    }

    static List<Entry> readEntries(PayloadReader r) {
        int n = r.getVarInt();
        List<Entry> out = new ArrayList<>(Math.min(n, 4096));
        for (int i = 0; i < n; i++) {
            out.add(new Entry(r.getBytes(), r.getBytes()));
        }
        return out;
    }

    static byte[] fetch(String table, List<byte[]> primaryKeys) {
        PayloadWriter w = new PayloadWriter(16 + primaryKeys.size() * 24).putString(table).putVarInt(primaryKeys.size());
        primaryKeys.forEach(w::putBytes);
        return w.toByteArray();
    }

    static byte[] values(List<byte[]> values) {
        PayloadWriter w = new PayloadWriter(16 + values.size() * 128).putVarInt(values.size());
        for (byte[] v : values) {
            if (v == null) {
                w.put(0);
            } else {
                w.put(1).putBytes(v);
            }
        }
        return w.toByteArray();
    }

    static List<byte[]> readValues(PayloadReader r) {
        int n = r.getVarInt();
        List<byte[]> out = new ArrayList<>(Math.min(n, 4096));
        for (int i = 0; i < n; i++) {
            out.add(r.get() == 0 ? null : r.getBytes());
        }
        return out;
    }

    /** A join fragment: the spec, how remote probes run, and the in-flight budget. */
    /** An index join to run from the node's partition; {@code after}: steps over its rows before they are sent (may be null). */
    /** @param partition the partition of the outer table it runs over; {@link ServingNodes#OWN_PARTITION}: the node's own */
    record Fragment(JoinSpec spec, ExecutionMode mode, int budget, JoinOutputSteps after, int partition,
                    boolean hedging) {
    }

    static byte[] countRange(String table, ColumnRange range) {
        PayloadWriter w = new PayloadWriter(64).putString(table);
        JoinSpecCodec.writeRange(w, range);
        return w.toByteArray();
    }

    static byte[] fragment(Fragment f) {
        PayloadWriter w = new PayloadWriter(256).putString(f.mode().name()).putVarInt(f.budget());
        JoinSpecCodec.write(w, f.spec());
        w.put(f.after() == null ? 0 : 1);
        if (f.after() != null) {
            f.after().write(w);
        }
        return w.putVarInt(f.partition() + 1).put(f.hedging() ? 1 : 0).toByteArray();
    }

    static Fragment readFragment(PayloadReader r) {
        ExecutionMode mode = ExecutionMode.valueOf(r.getString());
        int budget = r.getVarInt();
        JoinSpec spec = JoinSpecCodec.read(r);
        JoinOutputSteps after = r.get() == 0 ? null : JoinOutputSteps.read(r);
        int partition = r.getVarInt() - 1;
        return new Fragment(spec, mode, budget, after, partition, r.get() != 0);
    }

    /** A chunk of a fragment's result: the outer rows the fragment has finished so far, then rows. */
    static byte[] resultChunk(long outerRowsDone, List<Object[]> rows) {
        PayloadWriter w = new PayloadWriter(64 + rows.size() * 32).putLong(outerRowsDone);
        ColumnarRows.write(w, rows);
        return w.toByteArray();
    }

    /** As above, rows gathered from column batches. */
    static byte[] resultChunk(long outerRowsDone, GatheredRows rows) {
        PayloadWriter w = new PayloadWriter(64 + rows.size() * 16).putLong(outerRowsDone);
        rows.write(w);
        return w.toByteArray();
    }

    /** A chunk of broadcast rows staged on a node under {@code id}. */
    record StagedChunk(String id, ColumnarRows.Chunk chunk) {
    }

    /** A chunk of broadcast rows staged under {@code id}: {@code rows} as {@link ColumnarRows#write} encoded them. */
    static byte[] stagedChunk(String id, byte[] rows) {
        return new PayloadWriter(16 + id.length() + rows.length).putString(id).putBytesRaw(rows).toByteArray();
    }

    static StagedChunk readStagedChunk(PayloadReader r) {
        return new StagedChunk(r.getString(), ColumnarRows.readChunk(r));
    }

    /**
     * A pipeline to run, the bytes its operators may hold and spill on the node (0: the node's
     * default), the transactional tables it reads within a transaction and the tables it reads
     * from files.
     */
    /** @param partition the partition of the pipeline's tables it runs over; {@link ServingNodes#OWN_PARTITION}: the node's own */
    record Pipeline(ScanPipeline pipeline, QueryLimits limits, TransactionalReads reads, FileReads files, int partition,
                    FileOutput output) {
    }

    static byte[] pipeline(ScanPipeline pipeline, QueryLimits limits, TransactionalReads reads, FileReads files) {
        return pipeline(pipeline.toBytes(), limits, reads, files, ServingNodes.OWN_PARTITION);
    }

    /** As above, the pipeline given {@link ScanPipeline#toBytes encoded}, over partition {@code partition}. */
    static byte[] pipeline(byte[] pipeline, QueryLimits limits, TransactionalReads reads, FileReads files, int partition) {
        return pipeline(pipeline, limits, reads, files, partition, null);
    }

    /** As above, its rows written into files as {@code output} says (null: sent back). */
    static byte[] pipeline(byte[] pipeline, QueryLimits limits, TransactionalReads reads, FileReads files, int partition,
                           FileOutput output) {
        PayloadWriter w = new PayloadWriter(256 + pipeline.length);
        limits.write(w);
        w.putBytes(pipeline);
        reads.write(w);
        files.write(w);
        w.putVarInt(partition + 1);
        writeOutput(w, output);
        return w.toByteArray();
    }

    /** Where a request's rows go, last in it: nothing where they are sent back, as an earlier coordinator asks. */
    private static void writeOutput(PayloadWriter w, FileOutput output) {
        if (output != null) {
            w.put((byte) 1);
            output.write(w);
        }
    }

    /** What {@link #writeOutput} wrote: null where the request ends, its rows sent back. */
    private static FileOutput readOutput(PayloadReader r) {
        if (r.remaining() == 0) {
            return null;
        }
        if (r.get() != 1) {
            throw new ProtocolException("a pipeline's output: unknown kind");
        }
        return FileOutput.read(r);
    }

    static Pipeline readPipeline(PayloadReader r) {
        QueryLimits limit = QueryLimits.read(r);
        ScanPipeline pipeline = ScanPipeline.read(new PayloadReader(r.getBytes()));
        TransactionalReads reads = TransactionalReads.read(r);
        FileReads files = FileReads.read(r);
        int partition = r.getVarInt() - 1;
        return new Pipeline(pipeline, limit, reads, files, partition, readOutput(r));
    }

    /**
     * A shuffle's producing pipeline, the bytes it may hold and spill (0: the node's default), where
     * its rows go, the transactional tables it reads within a transaction and the tables it reads
     * from files.
     */
    record Shuffle(ScanPipeline pipeline, QueryLimits limits, ShuffleTarget target, TransactionalReads reads,
                   FileReads files, int partition) {
    }

    static byte[] shuffle(byte[] pipeline, ShuffleTarget target, QueryLimits limits, TransactionalReads reads,
                          FileReads files, int partition) {
        PayloadWriter w = new PayloadWriter(256 + pipeline.length);
        limits.write(w);
        w.putBytes(pipeline);
        target.write(w);
        reads.write(w);
        files.write(w);
        w.putVarInt(partition + 1);
        return w.toByteArray();
    }

    static Shuffle readShuffle(PayloadReader r) {
        QueryLimits limit = QueryLimits.read(r);
        ScanPipeline pipeline = ScanPipeline.read(new PayloadReader(r.getBytes()));
        ShuffleTarget target = ShuffleTarget.read(r);
        TransactionalReads reads = TransactionalReads.read(r);
        FileReads files = FileReads.read(r);
        return new Shuffle(pipeline, limit, target, reads, files, r.getVarInt() - 1);
    }

    /**
     * The final step of a GROUP BY on a node: the partial rows ({@code keyCount} keys, then each
     * aggregate's state) that {@code producers} nodes shuffle to exchange {@code exchange}, merged
     * into each group's result; the bytes it may hold and spill (0: the node's default).
     */
    record MergeGroups(String exchange, int producers, int keyCount, List<AggregateCall> aggregates, QueryLimits limits) {
    }

    static byte[] mergeGroups(MergeGroups m) {
        PayloadWriter w = new PayloadWriter(128).putString(m.exchange()).putVarInt(m.producers()).putVarInt(m.keyCount())
                .putVarInt(m.aggregates().size());
        m.aggregates().forEach(call -> ExprCodec.writeAggregate(w, call));
        m.limits().write(w);
        return w.toByteArray();
    }

    static MergeGroups readMergeGroups(PayloadReader r) {
        String exchange = r.getString();
        int producers = r.getVarInt();
        int keyCount = r.getVarInt();
        if (producers < 1 || keyCount < 1) {
            throw new ProtocolException("a merge of groups of " + keyCount + " keys from " + producers + " producers");
        }
        int n = r.getCount(1);
        List<AggregateCall> calls = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            AggregateCall call = ExprCodec.readAggregate(r);
            if (!call.splittable()) {
                throw new ProtocolException(call + " cannot be merged from partial states");
            }
            calls.add(call);
        }
        return new MergeGroups(exchange, producers, keyCount, calls, QueryLimits.read(r));
    }

    /**
     * Steps to run over the rows that {@code producers} nodes shuffle to exchange {@code exchange}
     * ({@code pipeline}'s table names none: its width and steps are what run); the bytes its
     * operators may hold and spill (0: the node's default); where {@code output} says, the rows
     * that come out are written into files (null: sent back).
     */
    record Exchanged(String exchange, int producers, ScanPipeline pipeline, QueryLimits limits, FileOutput output) {
        Exchanged(String exchange, int producers, ScanPipeline pipeline, QueryLimits limits) {
            this(exchange, producers, pipeline, limits, null);
        }
    }

    static byte[] exchanged(Exchanged e) {
        PayloadWriter w = new PayloadWriter(256).putString(e.exchange()).putVarInt(e.producers())
                .putBytes(e.pipeline().toBytes());
        e.limits().write(w);
        writeOutput(w, e.output());
        return w.toByteArray();
    }

    static Exchanged readExchanged(PayloadReader r) {
        String exchange = r.getString();
        int producers = r.getVarInt();
        if (producers < 1) {
            throw new ProtocolException("an exchange with " + producers + " producers");
        }
        ScanPipeline pipeline = ScanPipeline.read(new PayloadReader(r.getBytes()));
        QueryLimits limits = QueryLimits.read(r);
        return new Exchanged(exchange, producers, pipeline, limits, readOutput(r));
    }

    /** Rows a producer of exchange {@code exchange} sends to the node that owns their keys; {@code last}: it has sent all. */
    record ShuffleChunk(String exchange, String producer, boolean last, ColumnarRows.Chunk rows) {
    }

    static byte[] shuffleChunk(String exchange, String producer, boolean last, List<Object[]> rows) {
        PayloadWriter w = shuffleChunkHeader(exchange, producer, last, rows.size());
        ColumnarRows.write(w, rows);
        return w.toByteArray();
    }

    /** As above, rows gathered from column batches. */
    static byte[] shuffleChunk(String exchange, String producer, boolean last, GatheredRows rows) {
        PayloadWriter w = shuffleChunkHeader(exchange, producer, last, rows.size());
        rows.write(w);
        return w.toByteArray();
    }

    private static PayloadWriter shuffleChunkHeader(String exchange, String producer, boolean last, int rows) {
        return new PayloadWriter(64 + rows * 16).putString(exchange).putString(producer).put(last ? 1 : 0);
    }

    static ShuffleChunk readShuffleChunk(PayloadReader r) {
        String exchange = r.getString();
        String producer = r.getString();
        boolean last = r.get() != 0;
        return new ShuffleChunk(exchange, producer, last, ColumnarRows.readChunk(r));
    }

    /** About the bytes {@code rows} take on the wire, without writing them. */
    static long approximateBytes(List<Object[]> rows) {
        return rows.isEmpty() ? 0 : (long) rows.size() * (16 + 9L * rows.get(0).length);
    }

    /** As above, of a chunk. */
    static long approximateBytes(ColumnarRows.Chunk chunk) {
        return chunk.columns() == null ? approximateBytes(chunk.rows())
                : (long) chunk.size() * (16 + 9L * chunk.columns().length);
    }

    /** A chunk of rows as {@link ColumnarRows} sends them. */
    static List<Object[]> readRows(PayloadReader r) {
        return ColumnarRows.read(r);
    }

    /** The figures a node's pipeline ends its answer with, in the order of {@link PartitionPipeline.Summary}'s fields. */
    static byte[] pipelineSummary(PartitionPipeline.Summary s) {
        PayloadWriter w = new PayloadWriter(88).putLong(s.rowsScanned()).putLong(s.rowsOut()).putLong(s.nanos())
                .putLong(s.peakMemoryBytes()).putLong(s.spilledBytes()).putLong(s.spilledRows()).putLong(s.bytesOut())
                .putLong(s.rowsUngrouped()).putLong(s.bytesRead());
        PartitionPipeline.SplitFigures splits = s.splits();
        // the split figures only from a scan of files; nine figures where nothing came from a cache
        // either, as an earlier coordinator reads them
        boolean splitFigures = splits.read() > 0;
        if (s.bytesCached() > 0 || splitFigures) {
            w.putLong(s.bytesCached());
        }
        if (splitFigures) {
            w.putLong(splits.read()).putLong(splits.taken()).putLong(splits.seeks()).putLong(splits.waitNanos())
                    .putLong(splits.groups()).putLong(splits.groupsSkipped());
        }
        return w.toByteArray();
    }

    /**
     * Reads {@link #pipelineSummary}: sixteen figures (seven to ten from a node that sends no rows
     * ungrouped, no bytes read, none cached or no split figures), none negative, nothing after them.
     */
    static PartitionPipeline.Summary readPipelineSummary(PayloadReader r) {
        long[] f = new long[16];
        int read = 0;
        for (int i = 0; i < f.length && (i < 7 || r.remaining() > 0); i++) {
            f[i] = r.getLong();
            read++;
            if (f[i] < 0) {
                throw new ProtocolException("a pipeline summary with a negative figure " + f[i] + " at " + i);
            }
        }
        if (r.remaining() != 0 || read > 10 && read < f.length) {
            throw new ProtocolException("a pipeline summary of " + read + " figures and " + r.remaining()
                    + " bytes after them");
        }
        return new PartitionPipeline.Summary(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9],
                splitFigures(f));
    }

    private static PartitionPipeline.SplitFigures splitFigures(long[] f) {
        try {
            return new PartitionPipeline.SplitFigures(f[10], f[11], f[12], f[13], f[14], f[15]);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("a pipeline summary with " + e.getMessage());
        }
    }

    /**
     * The rows of a result chunk, one that came as columns kept so ({@link ColumnarRows.ChunkRows}):
     * what the coordinator gathers, whose result set may read the columns as they are.
     */
    static List<Object[]> readResultRowsKeepingColumns(PayloadReader r) {
        r.getLong(); // the outer rows done: a join fragment's progress
        return ColumnarRows.readKeepingColumns(r);
    }

    static ClusterSession.Chunk readResultChunk(PayloadReader r) {
        long done = r.getLong();
        return new ClusterSession.Chunk(done, readRows(r));
    }

    /** Flag of a statistics request: empty the buffer pool first, so the next query reads the disk. */
    static final byte STATS_DROP_CACHE = 1;
    /** Flag of a table statistics request: collect them anew (a scan of every partition) before answering. */
    static final byte STATISTICS_ANALYZE = 1;

    // Bulk load: one op, a step byte first.
    /** Steps of WRITE_ROWS: apply rows (not yet visible), then commit (flush and publish) or roll back what was applied. */
    static final byte WRITE_APPLY = 1;
    static final byte WRITE_COMMIT = 2;
    static final byte WRITE_ROLLBACK = 3;
    /**
     * The atomic commit of a write in place across its owners: each makes it durable and unseen
     * (prepare: {@code decider} string after the statement), then the decider records that it
     * committed and applies it (decide), then the others apply it ({@link #WRITE_COMMIT}). Outcome
     * asks a decider what became of a statement ({@link #WRITE_SETTLE} flag: the coordinator asking,
     * which rolls back one not decided yet); its answer is one byte ({@code InPlaceWrites.COMMITTED}...).
     */
    static final byte WRITE_PREPARE = 4;
    static final byte WRITE_DECIDE = 5;
    static final byte WRITE_OUTCOME = 6;
    static final byte WRITE_SETTLE = 1;

    static final byte LOAD_START = 5;
    static final byte LOAD_BEGIN = 1;
    static final byte LOAD_ROWS = 2;
    static final byte LOAD_FINISH_TABLE = 3;
    /**
     * A load's two-phase end: prepare (finish the staged store, its manifest written), then publish
     * (serve it, keeping the replaced store), then forget the replaced store once every node has
     * published, or restore it where one could not.
     */
    static final byte LOAD_PREPARE = 4;
    static final byte LOAD_PUBLISH = 8;
    static final byte LOAD_RESTORE = 9;
    static final byte LOAD_FORGET = 10;
    /** Drops a table from a load that keeps the store's other tables. */
    static final byte LOAD_DROP = 6;
    /** Discards an unfinished load. */
    static final byte LOAD_ABORT = 7;
    /**
     * Flag of LOAD_START: carry the store's tables over, except those listed after the flag, which
     * the load writes anew. A page size of 0 in LOAD_START means the store's own.
     */
    static final byte LOAD_KEEP_TABLES = 1;
    /** Trailing byte of LOAD_BEGIN: the table's rows on the node stay, the loaded ones are added. */
    static final byte LOAD_APPEND = 1;
    /**
     * A table copied from another node's files ({@code ooo cluster rebalance}) instead of built from
     * rows: begin (its stored name and the source's description), chunks of its files, finish.
     */
    static final byte LOAD_COPY_BEGIN = 11;
    static final byte LOAD_COPY_CHUNK = 12;
    static final byte LOAD_COPY_FINISH = 13;
    /** STORED_FILES steps: a stored table's description as JSON; a chunk of one of its files. */
    static final byte FILES_DESCRIBE = 1;
    static final byte FILES_READ = 2;
    static final byte ENTRY_ROW = 0;

    static void writeDefinition(PayloadWriter w, TableDefinition def) {
        w.putString(def.name()).putVarInt(def.schema().size());
        for (Column c : def.schema().columns()) {
            w.putString(c.name()).putString(c.type().toString());
        }
        w.putVarInt(def.primaryKey().size());
        def.primaryKey().forEach(w::putString);
        w.putVarInt(def.indexes().size());
        for (TableDefinition.IndexDefinition ix : def.indexes()) {
            w.putString(ix.name()).putString(ix.scope().name()).putVarInt(ix.columns().size());
            ix.columns().forEach(w::putString);
        }
        w.put(def.inputSorted() ? 1 : 0);
    }

    static TableDefinition readDefinition(PayloadReader r) {
        String name = r.getString();
        int n = r.getVarInt();
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            cols.add(new Column(r.getString(), DataType.parse(r.getString())));
        }
        List<String> pk = readStrings(r);
        int ixCount = r.getVarInt();
        List<TableDefinition.IndexDefinition> indexes = new ArrayList<>();
        for (int i = 0; i < ixCount; i++) {
            String ixName = r.getString();
            IndexScope scope = IndexScope.valueOf(r.getString());
            indexes.add(new TableDefinition.IndexDefinition(ixName, readStrings(r), scope));
        }
        return new TableDefinition(name, new Schema(cols), pk, indexes, r.get() != 0);
    }

    static List<String> readStrings(PayloadReader r) {
        int n = r.getVarInt();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(r.getString());
        }
        return out;
    }
}

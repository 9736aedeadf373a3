package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.ToIntFunction;
import org.oooengine.core.fragment.BatchSink;
import org.oooengine.core.fragment.Exchanges;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.GatheredRows;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.wire.ColumnarRows;

/**
 * The end of a shuffle's producing pipeline on one node: sends each row to the node that owns its
 * key ({@link ShuffleTarget}), a chunk of about {@link #ROWS_PER_CHUNK} rows at a time, and at the
 * end tells every node it is done. Batches of a vectorized pipeline are gathered column by column
 * for each node and written without boxing a value ({@link GatheredRows}); rows are written as
 * {@link org.oooengine.core.wire.ColumnarRows} writes them. One chunk per destination is in flight
 * at a time: a receiver that acknowledges slowly (its pipeline is behind) holds the pipeline back.
 * Rows this node owns go to its own inbox without the network: gathered as columns, as a
 * receiver reads them, where they came as batches.
 */
final class ShuffleSender implements BatchSink {
    static final int ROWS_PER_CHUNK = 1024;

    private final String self;
    private final String producer;
    private final ShuffleTarget target;
    private final Peers peers;
    private final Exchanges local;
    private final BooleanSupplier cancelled;
    private final ToIntFunction<Object> partitionOfKey;
    /** The same for a key vectors hold as a long, its encoding hashed without making it; null for other keys. */
    private final java.util.function.LongToIntFunction partitionOfLong;
    /** How long a chunk for this node's own inbox waits at most while the inbox holds more than its share. */
    private final long maxWaitMillis;
    /** Per destination, the rows to send; and the batches' rows gathered (null while none are). */
    private final List<List<Object[]>> buffers = new ArrayList<>();
    private final List<GatheredRows> gathered = new ArrayList<>();
    private final List<CompletableFuture<?>> inflight = new ArrayList<>();
    private long rowsSent;
    private long bytesSent;
    /** For a shuffle by group: the owner of each row's group. */
    private final ToIntFunction<Object[]> groupOwners;
    /** The key columns, read per row. */
    private final int[] keyColumns;

    /** @param cancelled checked before every chunk: a batch that multiplies (a cross join) stops within one chunk */
    /**
     * @param self     this node
     * @param producer the name the receivers count this producer by: the node, with the partition it
     *                 ran over where that is not its own (a node may produce for two)
     */
    ShuffleSender(String self, String producer, ShuffleTarget target, Peers peers, Exchanges local,
                  BooleanSupplier cancelled, long maxWaitMillis) {
        this.self = self;
        this.producer = producer;
        this.maxWaitMillis = maxWaitMillis;
        this.cancelled = cancelled;
        this.target = target;
        this.peers = peers;
        this.local = local;
        this.partitionOfKey = target.byGroup() ? null : Partitioning.partitioner(target.keyType(), target.owners().size());
        this.partitionOfLong = target.byGroup() ? null : Partitioning.longPartitioner(target.keyType(), target.owners().size());
        this.groupOwners = target.byGroup() ? target.groupOwners() : null;
        this.keyColumns = target.keyColumns().stream().mapToInt(Integer::intValue).toArray();
        for (int i = 0; i < target.owners().size(); i++) {
            buffers.add(new ArrayList<>(ROWS_PER_CHUNK));
            gathered.add(null);
            inflight.add(CompletableFuture.completedFuture(null));
        }
    }

    @Override
    public void accept(List<Object[]> batch) {
        for (Object[] row : batch) {
            int d = destination(row);
            if (d < 0) {
                continue;
            }
            if (gathered.get(d) != null) {
                send(d, false); // what came as batches goes first, in order
            }
            List<Object[]> buffer = buffers.get(d);
            buffer.add(row);
            if (buffer.size() >= ROWS_PER_CHUNK) {
                send(d, false);
            }
        }
    }

    @Override
    public void acceptBatch(Batch batch, SqlType[] types) {
        int n = target.owners().size();
        int[][] positions = new int[n][];
        int[] counts = new int[n];
        Object[] keys = new Object[batch.width()];
        LongVector longKeys = partitionOfLong != null && batch.column(keyColumns[0]) instanceof LongVector v ? v : null;
        int[] owners = target.byGroup() ? target.groupOwners(batch, types) : null;
        for (int k = 0; k < batch.size(); k++) {
            int p = batch.positions()[k];
            int d;
            if (owners != null) {
                d = owners[k];
            } else if (longKeys != null) {
                d = kept(longKeys.isNull(p) ? -1 : partitionOfLong.applyAsInt(longKeys.values[p]));
            } else {
                for (int c : keyColumns) {
                    keys[c] = batch.column(c).box(p, types[c]);
                }
                d = destination(keys);
            }
            if (d < 0) {
                continue;
            }
            if (positions[d] == null) {
                positions[d] = new int[batch.size()];
            }
            positions[d][counts[d]++] = p;
        }
        for (int d = 0; d < n; d++) {
            if (counts[d] == 0) {
                continue;
            }
            GatheredRows g = gathered.get(d);
            if (!buffers.get(d).isEmpty() || (g != null && !g.fits(batch))) {
                send(d, false); // what came before goes first, in order
                g = null;
            }
            if (g == null) {
                g = new GatheredRows(batch, types, ROWS_PER_CHUNK + batch.size());
                gathered.set(d, g);
            }
            g.add(batch, positions[d], counts[d]);
            if (g.size() >= ROWS_PER_CHUNK) {
                send(d, false);
            }
        }
    }

    /** The index of the owner a row goes to, or -1 when it goes nowhere (a null key joins nothing). */
    private int destination(Object[] row) {
        if (target.byGroup()) {
            return groupOwners.applyAsInt(row);
        }
        return kept(partitionOfKey.applyAsInt(row[keyColumns[0]]));
    }

    /** The destination of a row whose key is in partition {@code d}; -1 (a null key) joins nothing. */
    private int kept(int d) {
        if (d < 0 && !target.keepsNulls()) {
            return -1;
        }
        return Math.max(d, 0); // a row kept whole though it joins nothing: one node sends it on
    }

    /** Sends what is buffered and the end to every node, and waits for their acknowledgements. */
    void finish() {
        for (int d = 0; d < buffers.size(); d++) {
            send(d, true);
        }
        inflight.forEach(CompletableFuture::join);
    }

    long rowsSent() {
        return rowsSent;
    }

    /** Bytes of the chunks sent to other nodes (a node's own rows do not cross the network). */
    long bytesSent() {
        return bytesSent;
    }

    /** Sends destination {@code d} what it holds: its gathered batches' rows or else its rows. */
    private void send(int d, boolean last) {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("the requester cancelled the query or went away");
        }
        GatheredRows g = gathered.get(d);
        boolean own = target.owners().get(d).equals(self);
        if (g != null) {
            gathered.set(d, null);
            rowsSent += g.size();
            boolean rowsFollow = !buffers.get(d).isEmpty();
            if (own) {
                toOwnInbox(d, g.toChunk(), last && !rowsFollow);
            } else {
                call(d, Messages.shuffleChunk(target.exchangeFor(d), producer, last && !rowsFollow, g));
            }
            if (!rowsFollow) {
                return;
            }
        }
        List<Object[]> rows = buffers.get(d);
        buffers.set(d, new ArrayList<>(ROWS_PER_CHUNK));
        rowsSent += rows.size();
        if (own) {
            toOwnInbox(d, ColumnarRows.Chunk.ofRows(rows), last);
            return;
        }
        call(d, Messages.shuffleChunk(target.exchangeFor(d), producer, last, rows));
    }

    private void toOwnInbox(int d, ColumnarRows.Chunk chunk, boolean last) {
        String exchange = target.exchangeFor(d);
        local.add(exchange, producer, chunk, Messages.approximateBytes(chunk), last);
        local.awaitRoom(exchange, maxWaitMillis, cancelled); // as a peer's acknowledgement is held back
    }

    private void call(int d, byte[] chunk) {
        bytesSent += chunk.length;
        inflight.get(d).join(); // the previous chunk to this node was taken: a failure there fails this pipeline
        inflight.set(d, peers.client(target.owners().get(d)).call(OpCode.SHUFFLE_ROWS, chunk));
    }
}

package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.oooengine.core.fragment.Exchanges;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.net.OpCode;

/**
 * The end of a shuffle's producing pipeline on one node: sends each row to the node that owns its
 * key ({@link ShuffleTarget}), a chunk of {@link #ROWS_PER_CHUNK} rows at a time, and at the end
 * tells every node it is done. One chunk per destination is in flight at a time: a receiver
 * that acknowledges slowly (its pipeline is behind) holds the pipeline back. Rows this node owns go to its own inbox
 * without the network.
 */
final class ShuffleSender implements Consumer<List<Object[]>> {
    static final int ROWS_PER_CHUNK = 1024;

    private final String self;
    private final ShuffleTarget target;
    private final Peers peers;
    private final Exchanges local;
    private final BooleanSupplier cancelled;
    private final ToIntFunction<Object> partitionOfKey;
    /** How long a chunk for this node's own inbox waits at most while the inbox holds more than its share. */
    private final long maxWaitMillis;
    private final List<List<Object[]>> buffers = new ArrayList<>();
    private final List<CompletableFuture<?>> inflight = new ArrayList<>();
    private long rowsSent;
    private long bytesSent;
    /** For a shuffle by group: the owner of each row's group. */
    private final java.util.function.ToIntFunction<Object[]> groupOwners;

    /** @param cancelled checked before every chunk: a batch that multiplies (a cross join) stops within one chunk */
    ShuffleSender(String self, ShuffleTarget target, Peers peers, Exchanges local, BooleanSupplier cancelled,
                  long maxWaitMillis) {
        this.self = self;
        this.maxWaitMillis = maxWaitMillis;
        this.cancelled = cancelled;
        this.target = target;
        this.peers = peers;
        this.local = local;
        this.partitionOfKey = target.byGroup() ? null : Partitioning.partitioner(target.keyType(), target.owners().size());
        this.groupOwners = target.byGroup() ? target.groupOwners() : null;
        for (int i = 0; i < target.owners().size(); i++) {
            buffers.add(new ArrayList<>(ROWS_PER_CHUNK));
            inflight.add(CompletableFuture.completedFuture(null));
        }
    }

    @Override
    public void accept(List<Object[]> batch) {
        for (Object[] row : batch) {
            int d;
            if (target.byGroup()) {
                d = groupOwners.applyAsInt(row);
            } else {
                d = partitionOfKey.applyAsInt(row[target.keyColumns().get(0)]);
                if (d < 0 && !target.keepsNulls()) {
                    continue; // a null joins nothing
                }
                d = Math.max(d, 0); // a row kept whole though it joins nothing: one node sends it on
            }
            List<Object[]> buffer = buffers.get(d);
            buffer.add(row);
            if (buffer.size() >= ROWS_PER_CHUNK) {
                send(d, false);
            }
        }
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

    private void send(int d, boolean last) {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("the requester cancelled the query or went away");
        }
        List<Object[]> rows = buffers.get(d);
        buffers.set(d, new ArrayList<>(ROWS_PER_CHUNK));
        rowsSent += rows.size();
        String owner = target.owners().get(d);
        if (owner.equals(self)) {
            local.add(target.exchangeId(), self, rows, Messages.approximateBytes(rows), last);
            local.awaitRoom(target.exchangeId(), maxWaitMillis, cancelled); // as a peer's acknowledgement is held back
            return;
        }
        byte[] chunk = Messages.shuffleChunk(target.exchangeId(), self, last, rows);
        bytesSent += chunk.length;
        inflight.get(d).join(); // the previous chunk to this node was taken: a failure there fails this pipeline
        inflight.set(d, peers.client(owner).call(OpCode.SHUFFLE_ROWS, chunk));
    }
}

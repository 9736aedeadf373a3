package org.oooengine.core.cluster;

import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ValueCodec;

/**
 * Broadcast rows sent to a node ahead of the pipeline that builds from them ({@link JoinBuild.Staged}),
 * when they are too many for the pipeline's own frame. A step reaches its nodes one after another
 * with the same rows: each list of rows is encoded into chunks once for all of them, and the
 * chunks go to each node one after another's acknowledgement (the node's pace holds the sender
 * back) while the other nodes get theirs at the same time, so no node starts its part after the
 * others have sent everything. Thread-safe.
 */
final class StagedBroadcasts {
    /** About the bytes of one chunk. */
    static final int CHUNK_BYTES = 2 << 20;
    /** The lists of rows whose chunks are kept for the next node, the latest first. */
    private static final int KEPT_LISTS = 8;

    private final Peers peers;
    private final ArrayDeque<Encoded> kept = new ArrayDeque<>();

    /** A list's chunks, kept while the list lives and memory allows. */
    private record Encoded(WeakReference<List<Object[]>> rows, SoftReference<List<byte[]>> chunks) {
    }

    StagedBroadcasts(Peers peers) {
        this.peers = peers;
    }

    /**
     * {@code pipeline} with each join's broadcast rows named for {@code node} instead of carried,
     * and the sending of them; nothing is sent until {@link Staging#send}.
     */
    Staging stage(String node, ScanPipeline pipeline) {
        List<String> ids = new ArrayList<>();
        List<List<byte[]>> chunks = new ArrayList<>();
        ScanPipeline staged = pipeline.withBuilds(build -> {
            if (!(build instanceof JoinBuild.Rows r)) {
                return build;
            }
            String id = UUID.randomUUID().toString();
            ids.add(id);
            chunks.add(chunks(r.rows()));
            return new JoinBuild.Staged(id);
        });
        return new Staging(node, staged, ids, chunks);
    }

    /** A pipeline whose broadcast rows go to its node ahead of it. */
    final class Staging {
        private final String node;
        private final ScanPipeline pipeline;
        private final List<String> ids;
        private final List<List<byte[]>> chunks;

        private Staging(String node, ScanPipeline pipeline, List<String> ids, List<List<byte[]>> chunks) {
            this.node = node;
            this.pipeline = pipeline;
            this.ids = ids;
            this.chunks = chunks;
        }

        /** The pipeline that reads the rows by their ids. */
        ScanPipeline pipeline() {
            return pipeline;
        }

        /** Sends the rows, a chunk after the node acknowledged the one before; done when the last is acknowledged. */
        CompletableFuture<Void> send() {
            CompletableFuture<Void> sent = CompletableFuture.completedFuture(null);
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                for (byte[] chunk : chunks.get(i)) {
                    sent = sent.thenCompose(v -> peers.client(node).call(OpCode.STAGE_ROWS, Messages.stagedChunk(id, chunk))
                            .thenApply(answer -> null));
                }
            }
            return sent;
        }
    }

    /** The chunks of {@code rows}, encoded now or kept from an earlier node. */
    List<byte[]> chunks(List<Object[]> rows) {
        List<byte[]> known = known(rows);
        if (known != null) {
            return known;
        }
        List<byte[]> chunks = encode(rows);
        synchronized (kept) {
            kept.addFirst(new Encoded(new WeakReference<>(rows), new SoftReference<>(chunks)));
            while (kept.size() > KEPT_LISTS) {
                kept.removeLast();
            }
        }
        return chunks;
    }

    /** The chunks of {@code rows} (the very list) encoded before, or null. */
    private List<byte[]> known(List<Object[]> rows) {
        synchronized (kept) {
            for (Iterator<Encoded> it = kept.iterator(); it.hasNext(); ) {
                Encoded e = it.next();
                List<Object[]> r = e.rows().get();
                List<byte[]> chunks = e.chunks().get();
                if (r == null || chunks == null) {
                    it.remove();
                } else if (r == rows) {
                    return chunks;
                }
            }
            return null;
        }
    }

    /** {@code rows} as chunks of about {@link #CHUNK_BYTES} each (one, empty, for no rows), sized from a sample. */
    static List<byte[]> encode(List<Object[]> rows) {
        PayloadWriter sample = new PayloadWriter(4096);
        int sampled = Math.min(rows.size(), 256);
        rows.subList(0, sampled).forEach(row -> ValueCodec.writeRow(sample, row));
        int perChunk = (int) Math.max(1, (long) CHUNK_BYTES * Math.max(sampled, 1) / Math.max(sample.size(), 1));
        List<byte[]> chunks = new ArrayList<>();
        int from = 0;
        do {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + perChunk));
            PayloadWriter w = new PayloadWriter(64 + chunk.size() * 32);
            ColumnarRows.write(w, chunk);
            chunks.add(w.toByteArray());
            from += perChunk;
        } while (from < rows.size());
        return chunks;
    }
}

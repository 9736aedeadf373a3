package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * A file written by a node, as the coordinator of a warehouse table's INSERT drives it: opened,
 * sent rows a chunk at a time (each answered before the next goes, so a slow writer holds the
 * sender back), then finished or aborted. The node writes it with the {@link RowFileWriters} on
 * its class path. Not thread safe: one thread drives a file.
 */
public final class FileWrites implements AutoCloseable {
    static final byte OPEN = 1;
    static final byte ROWS = 2;
    static final byte FINISH = 3;
    static final byte ABORT = 4;
    /** About how many bytes of rows go in one request. */
    static final int CHUNK_BYTES = 1 << 20;

    /** A file to write: where, in which layout, holding rows of which columns (their stored types). */
    public record Target(String path, FileReads.Layout layout, Schema schema) {
    }

    private final Peers peers;
    private final String node;
    private final String id = UUID.randomUUID().toString();
    private final Target target;
    private final List<Object[]> pending = new ArrayList<>();
    private long pendingBytes;
    private long rows;
    private boolean open = true;

    private FileWrites(Peers peers, String node, Target target) {
        this.peers = peers;
        this.node = node;
        this.target = target;
    }

    /** Has {@code node} create {@code target}'s file; fails naming the node when it cannot. */
    public static FileWrites open(Peers peers, String node, Target target) {
        FileWrites file = new FileWrites(peers, node, target);
        PayloadWriter w = new PayloadWriter(256).put(OPEN).putString(file.id);
        writeTarget(w, target);
        file.call(w.toByteArray());
        return file;
    }

    /** Writes {@code target} as {@link #readTarget} reads it. */
    static void writeTarget(PayloadWriter w, Target target) {
        w.putString(target.path()).putString(target.layout().format()).putVarInt(target.layout().fieldDelimiter())
                .putString(target.layout().nullText()).putVarInt(target.schema().size());
        for (Column c : target.schema().columns()) {
            w.putString(c.name()).putString(c.type().toString());
        }
    }

    public String node() {
        return node;
    }

    public Target target() {
        return target;
    }

    /** Adds a row of stored values; sends the rows held once they are a chunk's worth. */
    public void write(Object[] row) {
        pending.add(row);
        pendingBytes += 16 + 9L * row.length; // as Messages.approximateBytes counts
        rows++;
        if (pendingBytes >= CHUNK_BYTES) {
            flush();
        }
    }

    /** Sends the rows held, completes the file and returns its length in bytes. */
    public long finish() {
        flush();
        open = false;
        return call(new PayloadWriter(48).put(FINISH).putString(id).toByteArray()).getLong();
    }

    public long rows() {
        return rows;
    }

    /** Aborts the file unless it was finished: the node deletes what it wrote. Never fails. */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            call(new PayloadWriter(48).put(ABORT).putString(id).toByteArray());
        } catch (RuntimeException e) {
            // the node is gone or forgets the file on its own, when it stays idle
        }
    }

    private void flush() {
        if (pending.isEmpty()) {
            return;
        }
        PayloadWriter w = new PayloadWriter((int) Math.min(pendingBytes + 256, Integer.MAX_VALUE)).put(ROWS).putString(id);
        ColumnarRows.write(w, pending);
        call(w.toByteArray());
        pending.clear();
        pendingBytes = 0;
    }

    private PayloadReader call(byte[] payload) {
        try {
            return peers.client(node).call(OpCode.WRITE_FILE, payload).join().reader();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ClusterException("node " + node + " writing " + target.path() + ": " + cause.getMessage(), cause);
        }
    }

    /** A target {@link #writeTarget} wrote (an OPEN request's, after its step and id). */
    static Target readTarget(PayloadReader r) {
        try {
            String path = r.getString();
            FileReads.Layout layout = new FileReads.Layout(r.getString(), (char) r.getVarInt(), r.getString());
            int width = r.getCount(2);
            List<Column> columns = new ArrayList<>(width);
            for (int c = 0; c < width; c++) {
                columns.add(new Column(r.getString(), DataType.parse(r.getString())));
            }
            return new Target(path, layout, new Schema(columns));
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("file write: " + e.getMessage());
        }
    }
}

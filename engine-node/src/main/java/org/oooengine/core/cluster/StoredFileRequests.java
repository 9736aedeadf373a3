package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.net.Responder;
import org.oooengine.core.store.Store;
import org.oooengine.core.wire.PayloadReader;

/**
 * A node's stored tables read as files, for a copy of one onto another node ({@link ReplicaRepair}).
 * A description is taken on the thread of loads and writes in place, so that it never sees a write
 * half published; a chunk names a file of the table by its name in the store, and no other file of
 * the node can be read this way.
 */
final class StoredFileRequests implements RequestFamily {
    /** The largest chunk asked for at once. */
    static final int MAX_CHUNK_BYTES = 4 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final NodeContext node;

    StoredFileRequests(NodeContext node) {
        this.node = node;
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.STORED_FILES);
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.reader();
        byte step = r.get();
        String stored = r.getString();
        switch (step) {
            case Messages.FILES_DESCRIBE -> node.loads().execute(() -> node.answer(out,
                    () -> out.reply(JSON.writeValueAsBytes(StoredTableFiles.of(node.store().require(), stored)))));
            case Messages.FILES_READ -> {
                String file = r.getString();
                long offset = r.getLong();
                int length = r.getVarInt();
                node.fragments().execute(() -> node.answer(out, () -> out.reply(read(stored, file, offset, length))));
            }
            default -> throw new ProtocolException("unknown stored-files step " + step);
        }
    }

    /** Up to {@code length} bytes of {@code file} from {@code offset}: fewer at its end. */
    private byte[] read(String stored, String file, long offset, int length) throws Exception {
        if (length < 0 || length > MAX_CHUNK_BYTES || offset < 0) {
            throw new IllegalArgumentException("a chunk of " + length + " bytes at " + offset
                    + " (at most " + MAX_CHUNK_BYTES + ")");
        }
        Store store = node.store().require();
        StoredTableFiles table = StoredTableFiles.of(store, stored);
        try (FileChannel ch = FileChannel.open(table.path(store.dir(), file), StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, Math.min(length, ch.size() - offset)));
            while (buf.hasRemaining() && ch.read(buf, offset + buf.position()) >= 0) {
                // read on until the chunk is full
            }
            return buf.array();
        }
    }
}

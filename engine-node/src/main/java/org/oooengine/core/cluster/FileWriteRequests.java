package org.oooengine.core.cluster;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * The files a node writes for coordinators ({@link FileWrites}), each open until its coordinator
 * finishes or aborts it. A file its coordinator stops sending to (the coordinator died) is
 * aborted once it has been idle as long as a stalled reader is waited for, so it leaves nothing.
 */
final class FileWriteRequests implements RequestFamily, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);

    private final NodeContext node;
    private final Map<String, Open> open = new ConcurrentHashMap<>();

    private record Open(FileWrites.Target target, RowFileWriters.RowFileWriter writer, long[] lastUsedNanos) {
        void touch() {
            lastUsedNanos[0] = System.nanoTime();
        }
    }

    FileWriteRequests(NodeContext node) {
        this.node = node;
        long every = node.readerStall().toMillis();
        node.heartbeats().scheduleWithFixedDelay(this::abortIdle, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.WRITE_FILE);
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.payload().length == 0 ? null : new PayloadReader(request.payload());
        if (r == null) {
            throw new ProtocolException("file write: an empty request");
        }
        byte step = r.get();
        String id = r.getString();
        // blocking file system work: on the node's threads for it, never on the network's
        node.fragments().execute(() -> node.answer(out, () -> out.reply(step(step, id, r))));
    }

    private byte[] step(byte step, String id, PayloadReader r) {
        switch (step) {
            case FileWrites.OPEN -> {
                FileWrites.Target target = FileWrites.readTarget(r);
                RowFileWriters.RowFileWriter writer = RowFileWriters.installed().create(target.path(), target.layout(),
                        target.schema());
                open.put(id, new Open(target, writer, new long[] {System.nanoTime()}));
                return NodeContext.EMPTY;
            }
            case FileWrites.ROWS -> {
                Open file = file(id);
                synchronized (file) {
                    file.touch();
                    file.writer().write(Messages.readRows(r));
                }
                return NodeContext.EMPTY;
            }
            case FileWrites.FINISH -> {
                Open file = file(id);
                open.remove(id);
                synchronized (file) {
                    long bytes = file.writer().finish();
                    LOG.debug("node {} wrote {} ({} bytes)", node.nodeId(), file.target().path(), bytes);
                    return new PayloadWriter(8).putLong(bytes).toByteArray();
                }
            }
            case FileWrites.ABORT -> {
                Open file = open.remove(id);
                if (file != null) {
                    synchronized (file) {
                        file.writer().abort();
                    }
                }
                return NodeContext.EMPTY;
            }
            default -> throw new ProtocolException("file write: step " + step);
        }
    }

    private Open file(String id) {
        Open file = open.get(id);
        if (file == null) {
            throw new IllegalStateException("node " + node.nodeId() + " writes no file " + id
                    + " (aborted, or idle for longer than " + node.readerStall().toSeconds() + " s)");
        }
        return file;
    }

    private void abortIdle() {
        long limit = System.nanoTime() - node.readerStall().toNanos();
        open.forEach((id, file) -> {
            if (file.lastUsedNanos()[0] < limit && open.remove(id, file)) {
                LOG.warn("node {}: aborted {}, which its coordinator stopped writing", node.nodeId(), file.target().path());
                node.fragments().execute(() -> {
                    synchronized (file) {
                        file.writer().abort();
                    }
                });
            }
        });
    }

    /** Aborts every file still open: a node closing leaves none half written. */
    @Override
    public void close() {
        open.values().forEach(f -> {
            synchronized (f) {
                f.writer().abort();
            }
        });
        open.clear();
    }
}

package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.LongSupplier;
import org.oooengine.core.exec.RowSink;
import org.oooengine.core.net.Responder;

/**
 * Sends result rows to the requester in chunks. When the connection cannot take more, the thread
 * that produced the row waits: the fragment slows to the reader's pace instead of buffering.
 */
final class ResultStreamer implements RowSink {
    static final int ROWS_PER_CHUNK = 1024;

    private final Responder responder;
    private final Duration readerStall;
    private final LongSupplier outerRowsDone;
    private List<Object[]> chunk = new ArrayList<>(ROWS_PER_CHUNK);
    private long bytesSent;

    ResultStreamer(Responder responder, Duration readerStall, LongSupplier outerRowsDone) {
        this.responder = responder;
        this.readerStall = readerStall;
        this.outerRowsDone = outerRowsDone;
    }

    @Override
    public synchronized void accept(Object[] row) {
        chunk.add(row);
        if (chunk.size() >= ROWS_PER_CHUNK) {
            send();
        }
    }

    /** An empty chunk: tells the requester the fragment is alive, and how far it got. */
    void heartbeat() {
        responder.chunk(Messages.resultChunk(outerRowsDone.getAsLong(), List.of()));
    }

    synchronized void flush() {
        if (!chunk.isEmpty()) {
            send();
        }
    }

    /** Bytes of the chunks of rows sent so far (heartbeats not counted). */
    synchronized long bytesSent() {
        return bytesSent;
    }

    private void send() {
        if (responder.cancelled()) {
            throw new CancellationException("the requester cancelled the query or went away");
        }
        byte[] payload = Messages.resultChunk(outerRowsDone.getAsLong(), chunk);
        bytesSent += payload.length;
        responder.chunk(payload);
        chunk = new ArrayList<>(ROWS_PER_CHUNK);
        responder.awaitWritableOrFail(readerStall);
    }
}

package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.LongSupplier;
import org.oooengine.core.exec.RowSink;
import org.oooengine.core.fragment.BatchSink;
import org.oooengine.core.net.Responder;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.GatheredRows;

/**
 * Sends result rows to the requester in chunks. When the connection cannot take more, the thread
 * that produced the row waits: the fragment slows to the reader's pace instead of buffering. Rows
 * of column batches ({@link #batches}) are gathered column by column and written without boxing a
 * value, in the layout the requester reads rows from.
 */
final class ResultStreamer implements RowSink {
    static final int ROWS_PER_CHUNK = 1024;

    private final Responder responder;
    private final Duration readerStall;
    private final LongSupplier outerRowsDone;
    private List<Object[]> chunk = new ArrayList<>(ROWS_PER_CHUNK);
    /** The rows of batches not sent yet; null while none are. */
    private GatheredRows gathered;
    private long bytesSent;

    ResultStreamer(Responder responder, Duration readerStall, LongSupplier outerRowsDone) {
        this.responder = responder;
        this.readerStall = readerStall;
        this.outerRowsDone = outerRowsDone;
    }

    @Override
    public synchronized void accept(Object[] row) {
        if (gathered != null) {
            sendGathered(); // in order
        }
        chunk.add(row);
        if (chunk.size() >= ROWS_PER_CHUNK) {
            send();
        }
    }

    /** This streamer as a pipeline's sink: rows as {@link #accept} takes them, batches gathered. */
    BatchSink batches() {
        return new BatchSink() {
            @Override
            public void accept(List<Object[]> rows) {
                rows.forEach(ResultStreamer.this::accept);
            }

            @Override
            public void acceptBatch(Batch batch, SqlType[] types) {
                gather(batch, types);
            }
        };
    }

    private synchronized void gather(Batch batch, SqlType[] types) {
        if (!chunk.isEmpty()) {
            send(); // in order
        }
        if (gathered != null && !gathered.fits(batch)) {
            sendGathered();
        }
        if (gathered == null) {
            gathered = new GatheredRows(batch, types, ROWS_PER_CHUNK + batch.size());
        }
        gathered.add(batch, batch.positions(), batch.size());
        if (gathered.size() >= ROWS_PER_CHUNK) {
            sendGathered();
        }
    }

    /** An empty chunk: tells the requester the fragment is alive, and how far it got. */
    void heartbeat() {
        responder.chunk(Messages.resultChunk(outerRowsDone.getAsLong(), List.of()));
    }

    synchronized void flush() {
        if (gathered != null) {
            sendGathered();
        }
        if (!chunk.isEmpty()) {
            send();
        }
    }

    /** Bytes of the chunks of rows sent so far (heartbeats not counted). */
    synchronized long bytesSent() {
        return bytesSent;
    }

    private void send() {
        List<Object[]> rows = chunk;
        chunk = new ArrayList<>(ROWS_PER_CHUNK);
        sendPayload(Messages.resultChunk(outerRowsDone.getAsLong(), rows));
    }

    private void sendGathered() {
        GatheredRows rows = gathered;
        gathered = null;
        sendPayload(Messages.resultChunk(outerRowsDone.getAsLong(), rows));
    }

    private void sendPayload(byte[] payload) {
        if (responder.cancelled()) {
            throw new CancellationException("the requester cancelled the query or went away");
        }
        bytesSent += payload.length;
        responder.chunk(payload);
        responder.awaitWritableOrFail(readerStall);
    }
}

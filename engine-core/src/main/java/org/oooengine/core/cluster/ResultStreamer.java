package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.oooengine.core.exec.RowSink;
import org.oooengine.core.net.Responder;

/**
 * Sends result rows to the requester in chunks. When the connection cannot take more, the thread
 * that produced the row waits: the fragment slows to the reader's pace instead of buffering.
 */
final class ResultStreamer implements RowSink {
    static final int ROWS_PER_CHUNK = 1024;

    private final Responder responder;
    private final Duration timeout;
    private List<Object[]> chunk = new ArrayList<>(ROWS_PER_CHUNK);

    ResultStreamer(Responder responder, Duration timeout) {
        this.responder = responder;
        this.timeout = timeout;
    }

    @Override
    public synchronized void accept(Object[] row) {
        chunk.add(row);
        if (chunk.size() >= ROWS_PER_CHUNK) {
            send();
        }
    }

    synchronized void flush() {
        if (!chunk.isEmpty()) {
            send();
        }
    }

    private void send() {
        if (responder.cancelled()) {
            throw new CancellationException("the requester cancelled the query or went away");
        }
        responder.chunk(Messages.rows(chunk));
        chunk = new ArrayList<>(ROWS_PER_CHUNK);
        responder.awaitWritableOrFail(timeout);
    }
}

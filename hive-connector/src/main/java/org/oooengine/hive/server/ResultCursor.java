package org.oooengine.hive.server;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.fragment.RowRuns;
import org.oooengine.core.sql.SqlException;

/**
 * Reads an operation's rows in batches, counting the rows handed out so every batch carries its
 * exact start offset (the driver checks it when it fetches ahead on its own threads). Batches are
 * handed out one at a time, so concurrent fetches of one operation get consecutive batches.
 */
final class ResultCursor {
    private static final Logger LOG = LogManager.getLogger(ResultCursor.class);

    private final List<WireColumn> columns;
    /** Set when all rows are in memory (metadata results): then FETCH_FIRST can start over. */
    private final List<Object[]> replayable;
    private Iterator<Object[]> rows;
    private long returned;
    private boolean exhausted;
    private boolean closed;

    private ResultCursor(List<WireColumn> columns, List<Object[]> replayable, Iterator<Object[]> rows) {
        this.columns = List.copyOf(columns);
        this.replayable = replayable;
        this.rows = rows;
    }

    static ResultCursor inMemory(List<WireColumn> columns, List<Object[]> rows) {
        return new ResultCursor(columns, rows, rows.iterator());
    }

    static ResultCursor streaming(List<WireColumn> columns, Iterator<Object[]> rows) {
        return new ResultCursor(columns, null, rows);
    }

    List<WireColumn> columns() {
        return columns;
    }

    synchronized boolean exhausted() {
        return exhausted;
    }

    /** Up to {@code maxRows} further rows; an empty batch (repeatedly) once all were read. */
    synchronized RowBatch next(int maxRows) {
        long start = returned;
        if (exhausted) {
            return new RowBatch(start, List.of());
        }
        RowBatch batch = new RowBatch(start, rows instanceof RowRuns runs ? runs.take(maxRows) : oneByOne(maxRows));
        int n = batch.size();
        returned += n;
        if (n < maxRows) {
            exhausted = true;
            close();
        }
        return batch;
    }

    private List<List<Object[]>> oneByOne(int maxRows) {
        List<Object[]> batch = new ArrayList<>(Math.min(maxRows, 1024));
        while (batch.size() < maxRows && rows.hasNext()) {
            batch.add(rows.next());
        }
        return List.of(batch);
    }

    /** FETCH_FIRST: start over, which streamed results can only do while nothing was read. */
    synchronized void rewind() {
        if (replayable != null) {
            rows = replayable.iterator();
            returned = 0;
            exhausted = false;
        } else if (returned > 0) {
            throw new SqlException("HY106", "FETCH_FIRST is not supported once rows of a statement result were fetched");
        }
    }

    /** Releases the engine's row source if it holds resources. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (rows instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("Closing a result's row source failed", e);
            }
        }
    }
}

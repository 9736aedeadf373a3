package org.oooengine.core.txn;

import java.util.List;

/**
 * The single WAL of the elr-swal baseline: every worker appends under one lock, which also hands
 * out the LSNs, so the file is in LSN order. A flush writes whatever is buffered, covering the
 * records of other workers too.
 */
final class SharedWal implements AutoCloseable {
    private final WalFile file;
    private long lastAppended;
    private long flushed;

    SharedWal(WalFile file) {
        this.file = file;
    }

    /** Buffers the record and returns its LSN. */
    synchronized long append(List<Transaction.Write> writes) {
        long lsn = ++lastAppended;
        file.append(lsn, writes);
        return lsn;
    }

    synchronized long lastAppended() {
        return lastAppended;
    }

    /** Returns once every record up to {@code lsn} is durable. */
    synchronized void flushThrough(long lsn) {
        if (flushed < lsn) {
            file.flush();
            flushed = lastAppended;
        }
    }

    synchronized void abandon() {
        file.abandon();
    }

    @Override
    public synchronized void close() {
        file.close();
    }
}

package org.oooengine.core.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.fragment.MemoryLimitExceededException;
import org.oooengine.core.fragment.SpillLimitExceededException;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.net.Responder;
import org.oooengine.core.storage.DataCorruptedException;

/**
 * What every family of a node's requests shares: the node's name and data directory, its peers,
 * the store it serves, the threads blocking work runs on, and how a failure becomes an error frame.
 *
 * @param fragments threads of their own for blocking work: scans, pipelines, fragments, statistics
 * @param loads the one thread of loads, writes in place and disk measurements, which run in turn
 * @param heartbeats timers: heartbeats of long answers, the periodic work of writes
 */
record NodeContext(String nodeId, Path dataDir, Duration timeout, Peers peers, ServedStore store,
                   ExecutorService fragments, ExecutorService loads, ScheduledExecutorService heartbeats) {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);
    static final byte[] EMPTY = new byte[0];

    /** How many request timeouts a stream waits for its requester to read on. */
    private static final int READER_STALL_TIMEOUTS = 12;

    /**
     * How long a stream of rows waits for its requester to read more before it gives up: far longer
     * than a request's timeout, since a live reader pauses to work between reads — a map task
     * sorting and spilling its output on a busy host stalled a scan of lineitem for over ten
     * seconds — while one that went away is noticed at once (its connection closes).
     */
    Duration readerStall() {
        return timeout.multipliedBy(READER_STALL_TIMEOUTS);
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Runs blocking work for a request and turns its failure into an error frame. */
    void answer(Responder out, ThrowingRunnable work) {
        try {
            work.run();
        } catch (Throwable e) {
            fail(out, e);
        }
    }

    /** Answers {@code out} with the error frame {@code e} maps to. */
    void fail(Responder out, Throwable e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof java.util.concurrent.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        ErrorCode code;
        if (cause instanceof RemoteException re) {
            code = re.code();
        } else if (cause instanceof ServedStore.NotLoadedException || cause instanceof IllegalArgumentException) {
            code = ErrorCode.NOT_FOUND;
        } else if (cause instanceof CancellationException) {
            code = ErrorCode.CANCELLED;
        } else if (cause instanceof org.oooengine.core.txn.TransactionAbortedException) {
            code = ErrorCode.CONFLICT; // a pipeline's read of a transactional table: its statement may run again
        } else if (corruption(cause) != null) {
            cause = corruption(cause); // its message names the file, the page or offset and what did not match
            code = ErrorCode.DATA_CORRUPTED;
            LOG.error("node {}: {}", nodeId, cause.getMessage());
        } else if (cause instanceof MemoryLimitExceededException || cause instanceof Admission.AdmissionException) {
            code = ErrorCode.OUT_OF_MEMORY;
            LOG.info("node {}: {}", nodeId, cause.getMessage());
        } else if (cause instanceof SpillLimitExceededException) {
            code = ErrorCode.DISK_FULL;
            LOG.warn("node {}: {}", nodeId, cause.getMessage());
        } else if (cause instanceof OutOfMemoryError) {
            code = ErrorCode.OUT_OF_MEMORY;
            LOG.error("node {}: out of memory serving a request", nodeId, cause);
        } else {
            code = ErrorCode.INTERNAL;
            LOG.warn("node {}: request failed", nodeId, cause);
        }
        // the receiving client's RemoteException names this node: the message does not repeat it
        out.fail(code, String.valueOf(cause.getMessage()));
    }

    /** The page or chunk check that failed anywhere in {@code e}'s causes (a reader may wrap it), or null. */
    private static DataCorruptedException corruption(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DataCorruptedException p) {
                return p;
            }
        }
        return null;
    }
}

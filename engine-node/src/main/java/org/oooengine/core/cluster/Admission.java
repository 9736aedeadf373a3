package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.oooengine.core.fragment.NodeMemory;

/**
 * A node's queue of statements: at most so many run at once, and none starts while those running
 * hold most of the node's memory for statements, so that a burst of statements waits its turn
 * instead of running into the heap together. One always may run (nothing else would free room).
 * A statement that waited its time fails, naming the node and what it waited for.
 */
final class Admission {
    private static final long SLICE_MILLIS = 1000;

    private final String node;
    private final int maxRunning;
    private final NodeMemory memory;
    private final long admitBelowBytes;
    private final Duration wait;
    private int running;
    private int waiting;

    Admission(String node, NodeService.Caps caps, NodeMemory memory) {
        this.node = node;
        this.maxRunning = caps.maxStatements();
        this.memory = memory;
        this.admitBelowBytes = (long) (memory.limit() * NodeService.Caps.ADMIT_BELOW_SHARE);
        this.wait = caps.admissionWait();
    }

    /**
     * Waits for the statement's turn; {@code waiting} runs about once a second meanwhile (a
     * heartbeat to the requester). Throws {@link CancellationException} once {@code cancelled}, and
     * {@link AdmissionException} when the wait is over.
     */
    void enter(BooleanSupplier cancelled, Runnable waitingBeat) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (this) {
            waiting++;
            try {
                while (!admits()) {
                    if (cancelled.getAsBoolean()) {
                        throw new CancellationException("the requester cancelled the query or went away");
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new AdmissionException("node " + node + " did not start the statement within "
                                + wait.toSeconds() + " s: " + running + " statements were running there (at most "
                                + maxRunning + " run at once) holding " + mib(memory.reservedByStatements()) + " of its "
                                + mib(memory.limit()) + " for statements, and " + (waiting - 1)
                                + " others waited too; try again when it is less busy");
                    }
                    wait(Math.min(SLICE_MILLIS, Math.max(1, left / 1_000_000)));
                    waitingBeat.run();
                }
                running++;
            } finally {
                waiting--;
            }
        }
    }

    private boolean admits() {
        return running == 0 || running < maxRunning && memory.reservedByStatements() < admitBelowBytes;
    }

    /** A statement ended: the next may start. */
    synchronized void exit() {
        running--;
        notifyAll();
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting;
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    /** A statement waited for its turn on a node longer than the node lets it. */
    static final class AdmissionException extends RuntimeException {
        AdmissionException(String message) {
            super(message);
        }
    }
}

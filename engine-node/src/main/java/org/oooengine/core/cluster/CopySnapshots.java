package org.oooengine.core.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.htap.AnalyticalCopies;

/**
 * The copy pins a node holds for statements, by the statement's snapshot number: every scan a
 * statement runs here reads the same pin, so a query joining two copied tables sees each
 * transaction in both or in neither (two pins taken a moment apart could split one). A pin is
 * taken by the statement's first scan here and let go when the statement says it is done ({@link
 * TxnOp#COPY_RELEASE}), or, should that never come (its coordinator died), once no scan has used
 * it for {@link #IDLE_NANOS}: a pinned copy is not written, so a forgotten pin costs the copies
 * a rebuild.
 */
final class CopySnapshots {
    private static final Logger LOG = LogManager.getLogger(CopySnapshots.class);
    /** How long a pin no scan uses outlives its statement's silence. */
    static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** The most statements pinning copies here at once: a client cannot pin the copies without bound. */
    static final int MAX_SNAPSHOTS = 4096;

    private static final class Held {
        AnalyticalCopies.Pin pin;
        int scans;
        boolean released;
        long lastUsedNanos = System.nanoTime();

        Held(AnalyticalCopies.Pin pin) {
            this.pin = pin;
        }
    }

    private final String nodeId;
    private final Map<Long, Held> held = new HashMap<>();
    /** Statements released lately: a scan of one arriving late (its statement was cancelled) is refused. */
    private final Map<Long, Boolean> released = new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > MAX_SNAPSHOTS;
        }
    };

    CopySnapshots(String nodeId) {
        this.nodeId = nodeId;
    }

    /**
     * The pin of statement {@code snapshot}, taken from {@code pin} on its first scan here; {@link
     * #done} it when the scan ends.
     */
    synchronized AnalyticalCopies.Pin use(long snapshot, Supplier<AnalyticalCopies.Pin> pin) {
        Held h = held.get(snapshot);
        if (h == null && released.containsKey(snapshot)) {
            throw new IllegalStateException("node " + nodeId + ": statement snapshot " + Long.toHexString(snapshot)
                    + " was released; its statement is over");
        }
        if (h == null) {
            dropIdle();
            if (held.size() >= MAX_SNAPSHOTS) {
                throw new IllegalStateException("node " + nodeId + " holds the copies for " + held.size()
                        + " statements already; try again once some are done");
            }
            h = new Held(pin.get());
            held.put(snapshot, h);
        } else if (h.released) {
            throw new IllegalStateException("node " + nodeId + ": statement snapshot " + Long.toHexString(snapshot)
                    + " was released; its statement is over");
        }
        h.scans++;
        h.lastUsedNanos = System.nanoTime();
        return h.pin;
    }

    /** The pin statement {@code snapshot} holds here, for a step of its cut; null when it holds none. */
    synchronized AnalyticalCopies.Pin held(long snapshot) {
        Held h = held.get(snapshot);
        return h == null || h.released ? null : h.pin;
    }

    /**
     * Has statement {@code snapshot} read {@code next} instead of {@code before} (its cut moved on
     * before any scan); closes whichever is not kept.
     */
    synchronized void replace(long snapshot, AnalyticalCopies.Pin before, AnalyticalCopies.Pin next) {
        if (next == before) {
            return;
        }
        Held h = held.get(snapshot);
        if (h != null && h.pin == before && !h.released) {
            h.pin = next;
            before.close();
        } else {
            next.close();
        }
    }

    /** A scan of statement {@code snapshot} ended. */
    synchronized void done(long snapshot) {
        Held h = held.get(snapshot);
        if (h != null) {
            h.scans--;
            h.lastUsedNanos = System.nanoTime();
            if (h.released && h.scans == 0) {
                held.remove(snapshot).pin.close();
            }
        }
    }

    /**
     * Statement {@code snapshot} is over: its pin goes once its last scan here ends, and a scan
     * of it still to come (its statement was cancelled) is refused.
     */
    synchronized void release(long snapshot) {
        released.put(snapshot, Boolean.TRUE);
        Held h = held.get(snapshot);
        if (h == null) {
            return; // the statement never scanned a copy here
        }
        h.released = true;
        if (h.scans == 0) {
            held.remove(snapshot).pin.close();
        }
    }

    /** Statements holding a pin here now. */
    synchronized int size() {
        return held.size();
    }

    /** Lets go of every pin (the copies are closing). */
    synchronized void releaseAll() {
        held.values().forEach(h -> h.pin.close());
        held.clear();
    }

    private void dropIdle() {
        long now = System.nanoTime();
        held.entrySet().removeIf(e -> {
            Held h = e.getValue();
            if (h.scans == 0 && now - h.lastUsedNanos > IDLE_NANOS) {
                LOG.warn("node {}: statement snapshot {} unused for {} min and never released; letting its copy go",
                        nodeId, Long.toHexString(e.getKey()), TimeUnit.NANOSECONDS.toMinutes(IDLE_NANOS));
                h.pin.close();
                return true;
            }
            return false;
        });
    }
}

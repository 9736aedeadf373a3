package org.oooengine.core.cluster;

import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * What a query asks of a node for one of its requests: the bytes its operators may hold in memory
 * and the bytes they may have in spill files, each 0 for the node's default. A node grants no more
 * than its own caps, whatever it is asked ({@link NodeService.Caps}).
 */
public record QueryLimits(long memoryBytes, long spillBytes) {
    /** The node's defaults for both. */
    public static final QueryLimits DEFAULTS = new QueryLimits(0, 0);

    public QueryLimits {
        if (memoryBytes < 0 || spillBytes < 0) {
            throw new IllegalArgumentException("query limits of " + memoryBytes + " and " + spillBytes + " bytes");
        }
    }

    void write(PayloadWriter w) {
        w.putLong(memoryBytes).putLong(spillBytes);
    }

    static QueryLimits read(PayloadReader r) {
        long memory = r.getLong();
        long spill = r.getLong();
        if (memory < 0 || spill < 0) {
            throw new org.oooengine.core.wire.ProtocolException("query limits of " + memory + " and " + spill + " bytes");
        }
        return new QueryLimits(memory, spill);
    }
}

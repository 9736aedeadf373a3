package org.oooengine.core.cluster;

/**
 * A node's process ran out of memory while it ran a statement, ended of it and was started again by
 * its supervisor: the statement failed of memory (SQLSTATE 53200), not of a node that went away.
 * Its cause is the failure the statement met (the connection to the node lost).
 */
public final class NodeRanOutOfMemoryException extends RuntimeException {
    private final String node;

    public NodeRanOutOfMemoryException(String node, String message, Throwable cause) {
        super(message, cause);
        this.node = node;
    }

    /** The node that ran out of memory. */
    public String node() {
        return node;
    }
}

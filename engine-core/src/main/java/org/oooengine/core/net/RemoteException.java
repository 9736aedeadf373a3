package org.oooengine.core.net;

/** A request that a node answered with an error frame, or that could not be answered at all. */
public class RemoteException extends RuntimeException {
    private final ErrorCode code;
    private final String node;

    public RemoteException(String node, ErrorCode code, String message) {
        super("node " + node + ": " + message);
        this.node = node;
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    /** The node that answered (or failed to). */
    public String node() {
        return node;
    }
}

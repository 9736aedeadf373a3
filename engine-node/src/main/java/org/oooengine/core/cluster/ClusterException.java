package org.oooengine.core.cluster;

/** A cluster in a state that does not allow the request: not running, already running, not loaded. */
public final class ClusterException extends RuntimeException {
    public ClusterException(String message) {
        super(message);
    }

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}

package org.oooengine.core.net;

import java.util.regex.Pattern;

/** A request that a node answered with an error frame, or that could not be answered at all. */
public class RemoteException extends RuntimeException {
    private final ErrorCode code;
    private final String node;

    public RemoteException(String node, ErrorCode code, String message) {
        super(namingNode(node, message));
        this.node = node;
        this.code = code;
    }

    /**
     * The message with a "node X: " prefix, unless it names the node already: a node's own error
     * frame (e.g. "refused by node n1: ...") must not read "node n1: refused by node n1: ...".
     */
    static String namingNode(String node, String message) {
        String text = message == null ? "" : message;
        return Pattern.compile("\\bnode " + Pattern.quote(node) + "\\b")
                .matcher(text).find() ? text : "node " + node + ": " + text;
    }

    public ErrorCode code() {
        return code;
    }

    /** The node that answered (or failed to). */
    public String node() {
        return node;
    }

    /**
     * The node {@code failure} (or a cause of it) says was lost — unreachable, its connection
     * dropped, or silent past its deadline — or null when it names no such node.
     */
    public static String lostNode(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RemoteException re && (re.code() == ErrorCode.NODE_UNAVAILABLE || re.code() == ErrorCode.TIMEOUT)) {
                return re.node();
            }
        }
        return null;
    }

    /** Whether {@code failure} is, or was caused by, a node's answer that it has no such thing (a table it does not hold). */
    public static boolean notFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RemoteException re && re.code() == ErrorCode.NOT_FOUND) {
                return true;
            }
        }
        return false;
    }
}

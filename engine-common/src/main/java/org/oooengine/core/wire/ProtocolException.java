package org.oooengine.core.wire;

/** A frame or payload that breaks the wire format; the connection that sent it is closed. */
public final class ProtocolException extends RuntimeException {
    public ProtocolException(String message) {
        super(message);
    }
}

package org.oooengine.core.net;

import org.oooengine.core.wire.PayloadReader;

/**
 * One decoded frame. The payload is copied out of Netty's buffers when the frame is decoded, so a
 * frame can be handed between threads without reference counting.
 */
public record Frame(OpCode op, long requestId, byte[] payload) {
    public PayloadReader reader() {
        return new PayloadReader(payload);
    }

    @Override
    public String toString() {
        return op + "#" + requestId + " (" + payload.length + " bytes)";
    }
}

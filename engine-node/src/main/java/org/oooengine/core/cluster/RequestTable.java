package org.oooengine.core.cluster;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RequestHandler;
import org.oooengine.core.net.Responder;
import org.oooengine.core.wire.ProtocolException;

/** Which family of a node's requests serves each op code: every op code is owned by one family at most. */
final class RequestTable implements RequestHandler {
    private final Map<OpCode, RequestFamily> owners = new EnumMap<>(OpCode.class);

    RequestTable(List<RequestFamily> families) {
        for (RequestFamily family : families) {
            for (OpCode op : family.ops()) {
                RequestFamily other = owners.put(op, family);
                if (other != null) {
                    throw new IllegalStateException(op + " is served by both " + other.getClass().getSimpleName()
                            + " and " + family.getClass().getSimpleName());
                }
            }
        }
    }

    /** The family that serves each op code. */
    Map<OpCode, RequestFamily> owners() {
        return Collections.unmodifiableMap(owners);
    }

    @Override
    public void handle(Frame request, Responder out) {
        RequestFamily family = owners.get(request.op());
        if (family == null) {
            throw new ProtocolException(request.op() + " is not a request");
        }
        family.handle(request, out);
    }
}

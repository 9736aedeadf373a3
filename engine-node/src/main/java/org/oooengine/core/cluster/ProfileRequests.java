package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.JSON;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.ProtocolException;

/**
 * CPU profiles of the node ({@link CpuProfile}), one at a time, started and stopped by the
 * coordinator around what it measures ({@code ooo bench tpch --profile}). A profile is written to
 * {@code profiles/<name>.jfr} under the node's data directory; the answer to stopping is its
 * summary as JSON.
 */
final class ProfileRequests implements RequestFamily {
    static final byte START = 1;
    static final byte STOP = 2;
    /** The directory under the node's data directory that profiles are written to. */
    static final String DIRECTORY = "profiles";

    private final NodeContext node;
    private final AtomicReference<CpuProfile> running = new AtomicReference<>();

    ProfileRequests(NodeContext node) {
        this.node = node;
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.PROFILE);
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.reader();
        byte step = r.get();
        String name = r.getString();
        // off the network thread: a recording is written and read when it stops
        node.loads().execute(() -> node.answer(out, () -> {
            switch (step) {
                case START -> {
                    CpuProfile started = CpuProfile.start(name);
                    if (!running.compareAndSet(null, started)) {
                        started.discard();
                        throw new IllegalStateException("node " + node.nodeId() + " is recording profile "
                                + running.get().name() + " already");
                    }
                    out.reply(new byte[0]);
                }
                case STOP -> {
                    CpuProfile profile = running.get();
                    if (profile == null || !profile.name().equals(name) || !running.compareAndSet(profile, null)) {
                        throw new IllegalArgumentException("node " + node.nodeId() + " records no profile " + name);
                    }
                    CpuProfile.Summary summary = profile.stop(node.dataDir().resolve(DIRECTORY));
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("node", node.nodeId());
                    answer.put("file", summary.file());
                    answer.put("samples", summary.samples());
                    answer.put("top", summary.top());
                    out.reply(JSON.writeValueAsBytes(answer));
                }
                default -> throw new ProtocolException("a profile step " + step);
            }
        }));
    }
}

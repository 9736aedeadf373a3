package org.oooengine.core.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.FreePorts;
import org.oooengine.core.store.StoreOptions;

/** Nodes of a cluster started in this JVM on free loopback ports, for tests. */
public final class TestCluster implements AutoCloseable {
    /** A table keyed on a BIGINT id, with a VARCHAR name and an index on it: what the write tests write. */
    static final org.oooengine.core.store.TableDefinition ID_NAME = new org.oooengine.core.store.TableDefinition("t",
            new org.oooengine.core.types.Schema(List.of(
                    new org.oooengine.core.types.Column("id", org.oooengine.core.types.DataType.parse("bigint")),
                    new org.oooengine.core.types.Column("name", org.oooengine.core.types.DataType.parse("varchar")))),
            List.of("id"), List.of(new org.oooengine.core.store.TableDefinition.IndexDefinition("t_name", List.of("name"))),
            false);
    public static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final StoreOptions OPTIONS = StoreOptions.defaults().withBufferPoolBytes(512 << 10).withIoThreads(16);

    public final Path dir;
    public final ClusterSpec spec;
    final List<NodeDaemon> daemons = new ArrayList<>();
    private final NodeService.Caps caps;
    /** The requests the nodes answer; the rest they refuse ({@link #answerOnly}). */
    private volatile java.util.Set<org.oooengine.core.net.OpCode> answered = java.util.EnumSet.allOf(
            org.oooengine.core.net.OpCode.class);

    public TestCluster(Path dir, int nodes) throws IOException {
        this(dir, nodes, NodeService.Caps.DEFAULTS);
    }

    /** As above, every node granting its queries no more than {@code caps}. */
    public TestCluster(Path dir, int nodes, NodeService.Caps caps) throws IOException {
        this(dir, nodes, caps, 1);
    }

    /** As above, each partition on {@code replication} nodes. */
    public TestCluster(Path dir, int nodes, NodeService.Caps caps, int replication) throws IOException {
        this(dir, nodes, caps, replication, org.oooengine.core.net.WireCompression.NONE);
    }

    /** As above, the members compressing the frames they send one another as {@code compression} says. */
    public TestCluster(Path dir, int nodes, NodeService.Caps caps, int replication,
                       org.oooengine.core.net.WireCompression compression) throws IOException {
        this.dir = dir;
        this.caps = caps;
        // Below the ports outgoing connections take: a node's port cannot be taken by one before it binds.
        this.spec = ClusterSpec.local("test", nodes, FreePorts.consecutive(nodes)).withReplication(replication)
                .withCompression(compression);
        spec.write(dir);
        ClusterSecret.generate().write(dir.resolve(ClusterSpec.SECRET_FILE));
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            daemons.add(start(n.id()));
        }
    }

    /** The first column of every row each node holds of {@code table} under its own name, in ascending order. */
    static java.util.List<Object> firstColumns(ClusterSession session, String table) {
        java.util.List<Object> out = new java.util.ArrayList<>();
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            session.scan(n.id(), table, chunk -> {
                synchronized (out) {
                    chunk.forEach(r -> out.add(r[0]));
                }
            }).join();
        }
        out.sort(java.util.Comparator.comparing(o -> ((Number) o).longValue()));
        return out;
    }

    public ClusterSession session() {
        return ClusterSession.open(dir, "test-coordinator", TIMEOUT);
    }

    NodeDaemon daemon(String id) {
        return daemons.stream().filter(d -> d.id().equals(id)).findFirst().orElseThrow();
    }

    public void stop(String id) {
        NodeDaemon d = daemon(id);
        d.close();
        daemons.remove(d);
    }

    public void restart(String id) {
        restart(id, Duration.ZERO);
    }

    /** Starts node {@code id} again, holding every answer back for {@code answerDelay}: a slow node. */
    public void restart(String id, Duration answerDelay) {
        daemons.add(start(id, answerDelay));
    }

    private NodeDaemon start(String id) {
        return start(id, Duration.ZERO);
    }

    private NodeDaemon start(String id, Duration answerDelay) {
        return NodeDaemon.start(dir, id, OPTIONS, TIMEOUT, answerDelay,
                java.time.Duration.ofMillis(org.oooengine.core.net.NodeServer.HANDSHAKE_DEADLINE_MS), caps,
                service -> (request, out) -> {
                    if (answered.contains(request.op())) {
                        service.handle(request, out);
                    } else {
                        out.fail(org.oooengine.core.net.ErrorCode.INTERNAL, "refused: this node answers only "
                                + answered + " now, not " + request.op());
                    }
                });
    }

    /** From now on every node answers only requests of these kinds and refuses the rest. */
    public void answerOnly(java.util.Set<org.oooengine.core.net.OpCode> ops) {
        answered = java.util.Set.copyOf(ops);
    }

    /** Every node answers every request again. */
    public void answerAll() {
        answered = java.util.EnumSet.allOf(org.oooengine.core.net.OpCode.class);
    }

    @Override
    public void close() {
        daemons.forEach(NodeDaemon::close);
        daemons.clear();
    }
}

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

    public TestCluster(Path dir, int nodes) throws IOException {
        this.dir = dir;
        // Below the ports outgoing connections take: a node's port cannot be taken by one before it binds.
        this.spec = ClusterSpec.local("test", nodes, FreePorts.consecutive(nodes));
        spec.write(dir);
        ClusterSecret.generate().write(dir.resolve(ClusterSpec.SECRET_FILE));
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            daemons.add(NodeDaemon.start(dir, n.id(), OPTIONS, TIMEOUT));
        }
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
        daemons.add(NodeDaemon.start(dir, id, OPTIONS, TIMEOUT));
    }

    @Override
    public void close() {
        daemons.forEach(NodeDaemon::close);
        daemons.clear();
    }
}

package org.oooengine.core.cluster;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.NodeClient;

/**
 * Connections from this process to the nodes of a cluster, one per node, opened on first use and
 * reopened after a loss. Connecting blocks: never ask for a new connection on a network thread.
 */
public final class Peers implements AutoCloseable {
    private final String self;
    private final ClusterSpec spec;
    private final ClusterSecret secret;
    private final Executor callbacks;
    private final Duration timeout;
    private final EventLoopGroup group;
    private final Map<String, NodeClient> clients = new ConcurrentHashMap<>();
    /** One lock per node: connecting to one node does not wait for a slow connect to another. */
    private final Map<String, Object> connecting = new ConcurrentHashMap<>();
    private final PeerLatencies latencies = new PeerLatencies();

    /**
     * @param self      this process's member name
     * @param callbacks where answers complete (a compute pool)
     * @param timeout   for connecting and for every request
     */
    public Peers(String self, ClusterSpec spec, ClusterSecret secret, Executor callbacks, Duration timeout) {
        this.self = self;
        this.spec = spec;
        this.secret = secret;
        this.callbacks = callbacks;
        this.timeout = timeout;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("ooo-peer-" + self, true));
    }

    public ClusterSpec spec() {
        return spec;
    }

    public Duration timeout() {
        return timeout;
    }

    /** The open connection to {@code node}, connecting first when there is none. */
    public NodeClient client(String node) {
        NodeClient c = clients.get(node);
        if (c != null && c.isOpen()) {
            return c;
        }
        synchronized (connecting.computeIfAbsent(node, k -> new Object())) {
            c = clients.get(node);
            if (c == null || !c.isOpen()) {
                ClusterSpec.NodeSpec n = spec.node(node);
                c = NodeClient.connect(self, node, n.dialAddress(), secret, group, callbacks, timeout,
                        spec.wireCompression());
                clients.put(node, c);
            }
            return c;
        }
    }

    /** An open connection, or null when none is open: for callers on network threads. */
    public NodeClient connected(String node) {
        NodeClient c = clients.get(node);
        return c != null && c.isOpen() ? c : null;
    }

    /** How long each peer has lately taken to answer index-join requests from this process. */
    PeerLatencies latencies() {
        return latencies;
    }

    /** Runs {@code task} on the network thread after {@code delayNanos}: it must neither block nor take long. */
    ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        return group.next().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    public long framesSent() {
        return clients.values().stream().mapToLong(NodeClient::framesSent).sum();
    }

    @Override
    public void close() {
        clients.values().forEach(NodeClient::close);
        clients.clear();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}

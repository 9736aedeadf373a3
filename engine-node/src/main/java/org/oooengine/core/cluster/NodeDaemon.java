package org.oooengine.core.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.function.UnaryOperator;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.NodeServer;
import org.oooengine.core.net.RequestHandler;
import org.oooengine.core.store.StoreOptions;

/** A cluster node: its store, the server members reach it on, and its connections to the other nodes. */
public final class NodeDaemon implements AutoCloseable {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final String id;
    private final Peers peers;
    private final NodeService service;
    private final NodeServer server;

    private NodeDaemon(String id, Peers peers, NodeService service, NodeServer server) {
        this.id = id;
        this.peers = peers;
        this.service = service;
        this.server = server;
    }

    /** Opens the node's store (if loaded) and starts serving; fails clearly when the port is taken. */
    public static NodeDaemon start(Path clusterDir, String nodeId, StoreOptions options, Duration timeout) {
        return start(clusterDir, nodeId, options, timeout, Duration.ZERO);
    }

    /** As above, every answer held back for {@code answerDelay}: an emulated network round trip (see NodeServer). */
    public static NodeDaemon start(Path clusterDir, String nodeId, StoreOptions options, Duration timeout,
                                   Duration answerDelay) {
        return start(clusterDir, nodeId, options, timeout, answerDelay, Duration.ofMillis(NodeServer.HANDSHAKE_DEADLINE_MS));
    }

    /** As above, closing connections that have not proved the cluster secret within {@code handshakeDeadline}. */
    public static NodeDaemon start(Path clusterDir, String nodeId, StoreOptions options, Duration timeout,
                                   Duration answerDelay, Duration handshakeDeadline) {
        return start(clusterDir, nodeId, options, timeout, answerDelay, handshakeDeadline, NodeService.Caps.DEFAULTS);
    }

    /** As above, granting its queries no more memory and spill than {@code caps}. */
    public static NodeDaemon start(Path clusterDir, String nodeId, StoreOptions options, Duration timeout,
                                   Duration answerDelay, Duration handshakeDeadline, NodeService.Caps caps) {
        return start(clusterDir, nodeId, options, timeout, answerDelay, handshakeDeadline, caps, handler -> handler);
    }

    /** As above, its requests handled by what {@code handlers} makes of the node's service (tests put faults there). */
    static NodeDaemon start(Path clusterDir, String nodeId, StoreOptions options, Duration timeout,
                            Duration answerDelay, Duration handshakeDeadline, NodeService.Caps caps,
                            UnaryOperator<RequestHandler> handlers) {
        ClusterSpec spec = ClusterSpec.read(clusterDir);
        ClusterSpec.NodeSpec me = spec.node(nodeId);
        ClusterSecret secret = ClusterSpec.readSecret(clusterDir);
        // Answers from peers complete on the common pool: cheap hand-offs, never a network thread.
        Peers peers = new Peers(nodeId, spec, secret, ForkJoinPool.commonPool(), timeout);
        NodeService service = null;
        try {
            service = new NodeService(nodeId, spec, clusterDir, peers, options, timeout, caps);
            NodeServer server = NodeServer.start(nodeId, me.listenAddress(), secret, handlers.apply(service), answerDelay,
                    handshakeDeadline, spec.wireCompression());
            return new NodeDaemon(nodeId, peers, service, server);
        } catch (RuntimeException e) {
            if (service != null) {
                service.close();
            }
            peers.close();
            throw e;
        }
    }

    public String id() {
        return id;
    }

    NodeService service() {
        return service;
    }

    public int port() {
        return server.port();
    }

    /** Answers every request this node holds open with an error frame (a node's last word before it ends). */
    public void failOpenRequests(org.oooengine.core.net.ErrorCode code, String message) {
        server.failOpenRequests(code, message);
    }

    @Override
    public void close() {
        server.close();
        peers.close();
        service.close();
    }
}

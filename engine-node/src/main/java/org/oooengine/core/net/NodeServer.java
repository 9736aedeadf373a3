package org.oooengine.core.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Accepts member connections on one port and hands their requests to a {@link RequestHandler}.
 * A connection must prove the cluster secret within the handshake deadline, sending frames of at
 * most {@link FrameFormat#MAX_UNAUTHENTICATED_FRAME_BYTES} until then; otherwise it is closed.
 */
public final class NodeServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeServer.class);
    /**
     * How long a connection may take to authenticate, by default. A member needs one round trip;
     * a connection silent for seconds holds a socket of the node for nothing.
     */
    public static final long HANDSHAKE_DEADLINE_MS = 5000;
    /** Above this many unsent bytes a channel reports unwritable; below the low mark it is writable again. */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 << 10, 1 << 20);
    /** Refused strangers write at most one WARN line per this interval; the others are counted. */
    static final Duration REFUSAL_LOG_INTERVAL = Duration.ofSeconds(10);

    private final String nodeName;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final ScheduledExecutorService delayTimer;
    /** The open connections of members (and of peers still to authenticate). */
    private final java.util.Set<ServerConnection> connections;

    private NodeServer(String nodeName, EventLoopGroup boss, EventLoopGroup workers, Channel serverChannel,
                       ScheduledExecutorService delayTimer, java.util.Set<ServerConnection> connections) {
        this.delayTimer = delayTimer;
        this.connections = connections;
        this.nodeName = nodeName;
        this.boss = boss;
        this.workers = workers;
        this.serverChannel = serverChannel;
    }

    /**
     * Listens on {@code address}; fails with a message naming the node and address when the port
     * is taken.
     */
    public static NodeServer start(String nodeName, InetSocketAddress address, ClusterSecret secret,
                                   RequestHandler handler) {
        return start(nodeName, address, secret, handler, Duration.ZERO);
    }

    /**
     * As {@link #start(String, InetSocketAddress, ClusterSecret, RequestHandler)}, holding every
     * answer back for {@code answerDelay} (zero: none): an emulated network round trip.
     */
    public static NodeServer start(String nodeName, InetSocketAddress address, ClusterSecret secret,
                                   RequestHandler handler, Duration answerDelay) {
        return start(nodeName, address, secret, handler, answerDelay, Duration.ofMillis(HANDSHAKE_DEADLINE_MS));
    }

    /**
     * As {@link #start(String, InetSocketAddress, ClusterSecret, RequestHandler, Duration)}, closing
     * connections that have not authenticated within {@code handshakeDeadline} (positive).
     */
    public static NodeServer start(String nodeName, InetSocketAddress address, ClusterSecret secret,
                                   RequestHandler handler, Duration answerDelay, Duration handshakeDeadline) {
        return start(nodeName, address, secret, handler, answerDelay, handshakeDeadline, WireCompression.NONE);
    }

    /** As above, its answers compressed as {@code compression} says. */
    public static NodeServer start(String nodeName, InetSocketAddress address, ClusterSecret secret,
                                   RequestHandler handler, Duration answerDelay, Duration handshakeDeadline,
                                   WireCompression compression) {
        if (handshakeDeadline.isNegative() || handshakeDeadline.isZero()) {
            throw new IllegalArgumentException("the handshake deadline must be positive, got " + handshakeDeadline);
        }
        ThrottledLog refusals = new ThrottledLog(LogManager.getLogger(ServerConnection.class), Level.WARN,
                "refused connections", REFUSAL_LOG_INTERVAL);
        ScheduledExecutorService delayTimer = answerDelay.isZero() ? null : Executors.newSingleThreadScheduledExecutor(
                new DefaultThreadFactory("ooo-answer-delay-" + nodeName, true));
        if (delayTimer != null) {
            LOG.info("node {} holds every answer back for {} µs (emulated network latency)", nodeName,
                    answerDelay.toNanos() / 1000);
        }
        java.util.Set<ServerConnection> connections = java.util.concurrent.ConcurrentHashMap.newKeySet();
        EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("ooo-accept-" + nodeName, true));
        EventLoopGroup workers = new NioEventLoopGroup(0, new DefaultThreadFactory("ooo-net-" + nodeName, true));
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (delayTimer != null) {
                            ch.pipeline().addLast(new AnswerDelay(delayTimer, answerDelay));
                        }
                        ch.pipeline().addLast(new FlushConsolidationHandler(256, true));
                        FrameFormat.installUnauthenticated(ch.pipeline(), compression);
                        ServerConnection connection = new ServerConnection(nodeName, secret, handler, handshakeDeadline,
                                refusals);
                        connections.add(connection);
                        ch.closeFuture().addListener(f -> connections.remove(connection));
                        ch.pipeline().addLast(connection);
                    }
                });
        try {
            Channel ch = b.bind(address).syncUninterruptibly().channel();
            LOG.info("node {} listening on {}", nodeName, ch.localAddress());
            return new NodeServer(nodeName, boss, workers, ch, delayTimer, connections);
        } catch (Exception e) {
            if (delayTimer != null) {
                delayTimer.shutdownNow();
            }
            boss.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
            throw new IllegalStateException("node " + nodeName + " cannot listen on " + address.getHostString() + ":"
                    + address.getPort() + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /**
     * Answers every request this node holds open, on every connection, with an error frame: the
     * last word of a node that is about to end (see GcWatchdog). Best effort: the frames leave on
     * the network threads.
     */
    public void failOpenRequests(ErrorCode code, String message) {
        for (ServerConnection c : connections) {
            c.failOpenRequests(code, message);
        }
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        boss.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        if (delayTimer != null) {
            delayTimer.shutdownNow();
        }
        LOG.info("node {} stopped listening", nodeName);
    }
}

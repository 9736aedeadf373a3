package org.oooengine.core.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * One member's connection to this node: the challenge on connect, then requests (single or
 * batched) handed to the {@link RequestHandler}. Anything that breaks the protocol closes this
 * connection only; the node goes on serving everyone else. Until the peer has proved the cluster
 * secret it gets a deadline and small frames only (see {@link FrameFormat#installUnauthenticated}),
 * so strangers cannot hold sockets or memory of the node.
 */
final class ServerConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LogManager.getLogger(ServerConnection.class);
    /** Requests one connection may have unanswered; beyond this they are refused, not queued. */
    static final int MAX_OPEN_REQUESTS = 8192;

    private final String nodeName;
    private final ClusterSecret secret;
    private final RequestHandler handler;
    private final Duration handshakeDeadline;
    private final ThrottledLog refusals;
    private final Map<Long, Responder> open = new ConcurrentHashMap<>();
    private final AtomicInteger openCount = new AtomicInteger();
    private final ReentrantLock writableLock = new ReentrantLock();
    private final Condition writable = writableLock.newCondition();
    private byte[] nonce;
    private String member;
    private boolean refused;
    private ScheduledFuture<?> deadline;

    /**
     * @param handshakeDeadline how long a peer may take to authenticate before it is dropped
     * @param refusals          the node's log of refused peers, shared by its connections
     */
    ServerConnection(String nodeName, ClusterSecret secret, RequestHandler handler, Duration handshakeDeadline,
                     ThrottledLog refusals) {
        this.nodeName = nodeName;
        this.secret = secret;
        this.handler = handler;
        this.handshakeDeadline = handshakeDeadline;
        this.refusals = refusals;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        nonce = ClusterSecret.nonce();
        byte[] payload = new PayloadWriter().putString(nodeName).putBytes(nonce).toByteArray();
        ctx.writeAndFlush(new Frame(OpCode.CHALLENGE, 0, payload));
        deadline = ctx.executor().schedule(() -> expire(ctx), handshakeDeadline.toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    /** Runs at the deadline; a member by then keeps its connection. */
    private void expire(ChannelHandlerContext ctx) {
        if (member == null && !refused) {
            refuse(ctx, ErrorCode.TIMEOUT, remote(ctx) + " did not authenticate within " + handshakeDeadline.toMillis()
                    + " ms", "no proof of the cluster secret within " + handshakeDeadline.toMillis() + " ms");
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame frame = (Frame) msg;
        if (refused) {
            return; // decoded from the same read as the frame that got the peer refused
        }
        if (member == null) {
            authenticate(ctx, frame);
            return;
        }
        switch (frame.op()) {
            case BATCH -> {
                PayloadReader r = frame.reader();
                int n = r.getVarInt();
                for (int i = 0; i < n; i++) {
                    OpCode op = OpCode.of(r.get());
                    long id = r.getLong();
                    byte[] payload = r.getBytes();
                    if (op == null || op == OpCode.BATCH) {
                        throw new ProtocolException("batch entry " + i + " has no valid request op");
                    }
                    dispatch(ctx, new Frame(op, id, payload));
                }
            }
            case CANCEL -> {
                Responder stream = open.get(frame.requestId());
                if (stream != null) {
                    stream.cancel();
                }
            }
            default -> dispatch(ctx, frame);
        }
    }

    private void authenticate(ChannelHandlerContext ctx, Frame frame) {
        String remote = remote(ctx);
        if (frame.op() != OpCode.AUTH) {
            refuse(ctx, ErrorCode.AUTH_FAILED, remote + " sent " + frame.op() + " before proving the cluster secret",
                    "wrong or missing cluster secret");
            return;
        }
        PayloadReader r = frame.reader();
        String name = r.getString();
        byte[] answer = r.getBytes();
        if (!secret.verify(nonce, answer)) {
            refuse(ctx, ErrorCode.AUTH_FAILED, "'" + name + "' at " + remote + " does not know the cluster secret",
                    "wrong or missing cluster secret");
            return;
        }
        member = name;
        deadline.cancel(false);
        FrameFormat.admitMember(ctx.pipeline());
        LOG.debug("node {}: member {} connected from {}", nodeName, name, remote);
        ctx.writeAndFlush(new Frame(OpCode.AUTH_OK, frame.requestId(), new byte[0]));
    }

    /**
     * Tells the peer why in an ERROR frame and closes. Not waiting for the write: a peer that does
     * not read must not keep the connection open.
     *
     * @param why     for the log, naming the peer
     * @param message for the peer
     */
    private void refuse(ChannelHandlerContext ctx, ErrorCode code, String why, String message) {
        refused = true;
        refusals.log("node {} refused a connection: {}", nodeName, why);
        byte[] payload = new PayloadWriter().put(code.code()).putString("refused by node " + nodeName + ": " + message)
                .toByteArray();
        ctx.writeAndFlush(new Frame(OpCode.ERROR, 0, payload));
        ctx.close();
    }

    private static String remote(ChannelHandlerContext ctx) {
        return String.valueOf(ctx.channel().remoteAddress());
    }

    private void dispatch(ChannelHandlerContext ctx, Frame request) {
        long id = request.requestId();
        Responder responder = new Responder(ctx.channel(), id, writableLock, writable, () -> {
            open.remove(id);
            openCount.decrementAndGet();
        });
        if (openCount.incrementAndGet() > MAX_OPEN_REQUESTS) {
            responder.fail(ErrorCode.TOO_MANY_REQUESTS, "more than " + MAX_OPEN_REQUESTS + " open requests on one connection");
            return;
        }
        open.put(id, responder);
        try {
            handler.handle(request, responder);
        } catch (ProtocolException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("node {}: {} failed", nodeName, request, e);
            responder.fail(ErrorCode.INTERNAL, String.valueOf(e.getMessage()));
        }
    }

    /** Fails every request open on this connection (see {@link NodeServer#failOpenRequests}). */
    void failOpenRequests(ErrorCode code, String message) {
        for (Responder r : open.values()) {
            r.fail(code, message);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Stop reading requests while answers cannot be sent: the client's requests then wait in
        // its socket and its own budget, not in this node's memory.
        boolean w = ctx.channel().isWritable();
        ctx.channel().config().setAutoRead(w);
        if (w) {
            writableLock.lock();
            try {
                writable.signalAll();
            } finally {
                writableLock.unlock();
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
        }
        open.values().forEach(Responder::cancel);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (member != null) {
            LOG.warn("node {}: closing the connection from {} ({}): {}", nodeName, remote(ctx), member, describe(cause));
        } else if (!refused) {
            refused = true;
            refusals.log("node {} refused a connection: {}", nodeName, remote(ctx) + (cause instanceof TooLongFrameException
                    ? " announced a frame longer than the " + FrameFormat.MAX_UNAUTHENTICATED_FRAME_BYTES
                            + " bytes allowed before authentication"
                    : " (not authenticated): " + describe(cause)));
        }
        ctx.close();
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}

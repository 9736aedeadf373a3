package org.oooengine.core.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One member's connection to this node: the challenge on connect, then requests (single or
 * batched) handed to the {@link RequestHandler}. Anything that breaks the protocol closes this
 * connection only; the node goes on serving everyone else.
 */
final class ServerConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LogManager.getLogger(ServerConnection.class);
    /** Requests one connection may have unanswered; beyond this they are refused, not queued. */
    static final int MAX_OPEN_REQUESTS = 8192;

    private final String nodeName;
    private final ClusterSecret secret;
    private final RequestHandler handler;
    private final Map<Long, Responder> open = new ConcurrentHashMap<>();
    private final AtomicInteger openCount = new AtomicInteger();
    private final ReentrantLock writableLock = new ReentrantLock();
    private final Condition writable = writableLock.newCondition();
    private byte[] nonce;
    private String member;

    ServerConnection(String nodeName, ClusterSecret secret, RequestHandler handler) {
        this.nodeName = nodeName;
        this.secret = secret;
        this.handler = handler;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        nonce = ClusterSecret.nonce();
        byte[] payload = new PayloadWriter().putString(nodeName).putBytes(nonce).toByteArray();
        ctx.writeAndFlush(new Frame(OpCode.CHALLENGE, 0, payload));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame frame = (Frame) msg;
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
        String remote = String.valueOf(ctx.channel().remoteAddress());
        if (frame.op() != OpCode.AUTH) {
            refuse(ctx, remote + " sent " + frame.op() + " before proving the cluster secret");
            return;
        }
        PayloadReader r = frame.reader();
        String name = r.getString();
        byte[] answer = r.getBytes();
        if (!secret.verify(nonce, answer)) {
            refuse(ctx, "'" + name + "' at " + remote + " does not know the cluster secret");
            return;
        }
        member = name;
        LOG.debug("node {}: member {} connected from {}", nodeName, name, remote);
        ctx.writeAndFlush(new Frame(OpCode.AUTH_OK, frame.requestId(), new byte[0]));
    }

    private void refuse(ChannelHandlerContext ctx, String why) {
        LOG.warn("node {} refused a connection: {}", nodeName, why);
        byte[] payload = new PayloadWriter().put(ErrorCode.AUTH_FAILED.code())
                .putString("refused by node " + nodeName + ": wrong or missing cluster secret").toByteArray();
        ctx.writeAndFlush(new Frame(OpCode.ERROR, 0, payload)).addListener(f -> ctx.close());
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
        open.values().forEach(Responder::cancel);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("node {}: closing the connection from {} ({}): {}", nodeName, ctx.channel().remoteAddress(),
                member == null ? "not authenticated" : member, describe(cause));
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

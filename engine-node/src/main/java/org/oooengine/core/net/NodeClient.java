package org.oooengine.core.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * One authenticated connection to a node, shared by every request to it. Requests are sent without
 * waiting for earlier answers; answers are matched by request id in whatever order they come.
 * Requests issued close together are sent as one {@link OpCode#BATCH} frame. A request not
 * answered within the timeout, or outstanding when the connection drops, fails with a
 * {@link RemoteException} naming the node.
 */
public final class NodeClient implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeClient.class);
    /** Most requests in one batch frame. */
    static final int MAX_BATCH = 64;
    /** Requests that may wait for an answer at once; callers' in-flight budgets stay well below. */
    public static final int MAX_OUTSTANDING = 4096;
    private static final long SWEEP_MILLIS = 50;
    /**
     * How the failure of a request outstanding when its connection dropped ends, after "connection to
     * host:port": what a node process that ended (crashed, ran out of memory, was killed) looks like
     * from here. A coordinator looks for it to ask the node, once back, what ended it.
     */
    public static final String LOST = " lost: the node ended or dropped the connection";

    private final String node;
    private final InetSocketAddress address;
    private final Executor callbacks;
    private final long timeoutNanos;
    private final Channel channel;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Frame> outbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicLong framesSent = new AtomicLong();
    private final ScheduledFuture<?> sweeper;
    private volatile String closedReason;

    /** An unanswered request; streams deliver chunks before their end frame. */
    private static final class Pending {
        final OpCode op;
        final CompletableFuture<Frame> result = new CompletableFuture<>();
        final Consumer<Frame> chunks;
        /** Checks a stream's end frame where frames are read; null: none. */
        final Consumer<Frame> endCheck;
        final long timeoutNanos;
        /** Completed on the network thread: the caller blocks on it and chains nothing slow. */
        final boolean awaited;
        volatile long deadline;

        Pending(OpCode op, Consumer<Frame> chunks, Consumer<Frame> endCheck, long deadline, long timeoutNanos,
                boolean awaited) {
            this.op = op;
            this.chunks = chunks;
            this.endCheck = endCheck;
            this.deadline = deadline;
            this.timeoutNanos = timeoutNanos;
            this.awaited = awaited;
        }
    }

    private NodeClient(String node, InetSocketAddress address, Executor callbacks, Duration timeout, Channel channel) {
        this.node = node;
        this.address = address;
        this.callbacks = callbacks;
        this.timeoutNanos = timeout.toNanos();
        this.channel = channel;
        this.sweeper = channel.eventLoop().scheduleWithFixedDelay(this::expire, SWEEP_MILLIS, SWEEP_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Connects and proves the cluster secret, waiting at most {@code timeout}.
     *
     * @param member    this process's name, as the node logs it
     * @param node      the node's name, for messages
     * @param callbacks where answers complete their futures (keep network threads free)
     */
    public static NodeClient connect(String member, String node, InetSocketAddress address, ClusterSecret secret,
                                     EventLoopGroup group, Executor callbacks, Duration timeout) {
        return connect(member, node, address, secret, group, callbacks, timeout, WireCompression.NONE);
    }

    /** As above, its requests compressed as {@code compression} says. */
    public static NodeClient connect(String member, String node, InetSocketAddress address, ClusterSecret secret,
                                     EventLoopGroup group, Executor callbacks, Duration timeout,
                                     WireCompression compression) {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        NodeClient[] self = new NodeClient[1];
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, NodeServer.WATER_MARK)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FlushConsolidationHandler(256, true));
                        FrameFormat.install(ch.pipeline(), compression);
                        ch.pipeline().addLast(new Handshake(member, node, secret, ready));
                        ch.pipeline().addLast(new Answers(() -> self[0]));
                    }
                });
        ChannelFuture connected = b.connect(address);
        try {
            connected.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!connected.isSuccess()) {
                Throwable cause = connected.cause();
                connected.channel().close();
                throw unavailable(node, address, cause == null ? "no connection within " + timeout.toMillis() + " ms"
                        : cause.getMessage());
            }
            self[0] = new NodeClient(node, address, callbacks, timeout, connected.channel());
            ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return self[0];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected.channel().close();
            RemoteException interrupted = unavailable(node, address, "interrupted while connecting");
            interrupted.initCause(e); // whoever waited can tell an interruption from a dead node
            throw interrupted;
        } catch (java.util.concurrent.ExecutionException e) {
            connected.channel().close();
            throw e.getCause() instanceof RemoteException re ? re : unavailable(node, address, e.getCause().getMessage());
        } catch (java.util.concurrent.TimeoutException e) {
            connected.channel().close();
            throw unavailable(node, address, "no answer to the handshake within " + timeout.toMillis() + " ms");
        }
    }

    private static RemoteException unavailable(String node, InetSocketAddress address, String why) {
        return new RemoteException(node, ErrorCode.NODE_UNAVAILABLE,
                "unreachable at " + address.getHostString() + ":" + address.getPort() + " (" + why + ")");
    }

    public String node() {
        return node;
    }

    public boolean isOpen() {
        return closedReason == null && channel.isActive();
    }

    /** Sends a request; the future completes with its RESULT frame or fails with a {@link RemoteException}. */
    public CompletableFuture<Frame> call(OpCode op, byte[] payload) {
        return send(op, payload, null, null, timeoutNanos, false);
    }

    /**
     * As {@link #call(OpCode, byte[])}, for a caller that blocks on the answer (a transaction's
     * step): the future completes on the network thread, which wakes the caller itself rather than
     * through the callback pool — one thread hand-off less per request. Chain nothing on it that
     * blocks or takes long: it would run on the network thread.
     */
    public CompletableFuture<Frame> callAwaited(OpCode op, byte[] payload) {
        return send(op, payload, null, null, timeoutNanos, true);
    }

    /** A request that may take longer than the connection's timeout (e.g. building a partition's indexes). */
    public CompletableFuture<Frame> call(OpCode op, byte[] payload, Duration timeout) {
        return send(op, payload, null, null, timeout.toNanos(), false);
    }

    /**
     * Sends a streaming request; chunks go to {@code chunks} in order, on a network thread; the
     * future completes with the end frame. Cancelling the future cancels the stream on the node.
     */
    public CompletableFuture<Frame> stream(OpCode op, byte[] payload, Consumer<Frame> chunks) {
        return send(op, payload, chunks, null, timeoutNanos, false);
    }

    /**
     * As above, the end frame checked by {@code endCheck} on the network thread before the future
     * completes: a {@link ProtocolException} from it fails the request naming the node and closes
     * the connection, as a malformed chunk does, since nothing after it can be trusted.
     */
    public CompletableFuture<Frame> stream(OpCode op, byte[] payload, Consumer<Frame> chunks, Consumer<Frame> endCheck) {
        return send(op, payload, chunks, endCheck, timeoutNanos, false);
    }

    /** Asks the node to stop a stream this client started. */
    public void cancel(long requestId) {
        channel.writeAndFlush(new Frame(OpCode.CANCEL, requestId, new byte[0]));
    }

    /** Frames sent; fewer than requests when batching combined them. */
    public long framesSent() {
        return framesSent.get();
    }

    private CompletableFuture<Frame> send(OpCode op, byte[] payload, Consumer<Frame> chunks, Consumer<Frame> endCheck,
                                          long timeout, boolean awaited) {
        String closed = closedReason;
        if (closed != null || !channel.isActive()) {
            return CompletableFuture.failedFuture(new RemoteException(node, ErrorCode.NODE_UNAVAILABLE,
                    closed != null ? closed : "connection to " + address + " is closed"));
        }
        if (outstanding.incrementAndGet() > MAX_OUTSTANDING) {
            outstanding.decrementAndGet();
            return CompletableFuture.failedFuture(new RemoteException(node, ErrorCode.TOO_MANY_REQUESTS,
                    "more than " + MAX_OUTSTANDING + " requests outstanding"));
        }
        long id = nextId.getAndIncrement();
        Pending p = new Pending(op, chunks, endCheck, System.nanoTime() + timeout, timeout, awaited);
        pending.put(id, p);
        if (chunks != null) {
            p.result.whenComplete((r, e) -> {
                // The caller gave up on a stream: tell the node to stop producing it.
                if (e instanceof java.util.concurrent.CancellationException && pending.remove(id, p)) {
                    outstanding.decrementAndGet();
                    cancel(id);
                }
            });
        }
        outbox.add(new Frame(op, id, payload));
        if (flushScheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::flushOutbox);
        }
        return p.result;
    }

    /** Runs on the event loop: sends what accumulated, in batches, while the channel takes data. */
    private void flushOutbox() {
        flushScheduled.set(false);
        List<Frame> batch = new ArrayList<>(MAX_BATCH);
        while (channel.isWritable()) {
            Frame f = outbox.poll();
            if (f != null) {
                batch.add(f);
            }
            if (batch.size() == MAX_BATCH || (f == null && !batch.isEmpty())) {
                channel.write(batch.size() == 1 ? batch.get(0) : batchFrame(batch));
                framesSent.incrementAndGet();
                batch.clear();
            }
            if (f == null) {
                break;
            }
        }
        channel.flush();
        // Whatever is left waits for channelWritabilityChanged, which schedules the next flush.
    }

    private static Frame batchFrame(List<Frame> frames) {
        PayloadWriter w = new PayloadWriter(frames.size() * 48);
        w.putVarInt(frames.size());
        for (Frame f : frames) {
            w.put(f.op().code()).putLong(f.requestId()).putBytes(f.payload());
        }
        return new Frame(OpCode.BATCH, 0, w.toByteArray());
    }

    private void scheduleFlush() {
        if (!outbox.isEmpty() && flushScheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::flushOutbox);
        }
    }

    private void onAnswer(Frame frame) {
        Pending p = frame.op() == OpCode.STREAM_CHUNK ? pending.get(frame.requestId()) : pending.remove(frame.requestId());
        if (p == null) {
            return; // answered after its timeout: already failed
        }
        switch (frame.op()) {
            case STREAM_CHUNK -> {
                p.deadline = System.nanoTime() + p.timeoutNanos;
                if (p.chunks == null) {
                    throw new ProtocolException("stream chunk for non-stream request " + frame.requestId());
                }
                p.chunks.accept(frame);
                // the time a slow consumer took with the chunk is not the node's: the wait starts after it
                p.deadline = System.nanoTime() + p.timeoutNanos;
            }
            case RESULT, STREAM_END -> {
                if (p.endCheck != null) {
                    try {
                        p.endCheck.accept(frame);
                    } catch (ProtocolException e) {
                        complete(p, null, new RemoteException(node, ErrorCode.MALFORMED_REQUEST, "node " + node
                                + " ended " + p.op + " with a malformed answer, closing the connection: " + e.getMessage()));
                        throw e;
                    }
                }
                complete(p, frame, null);
            }
            case ERROR -> {
                PayloadReader r = frame.reader();
                ErrorCode code = ErrorCode.of(r.get());
                complete(p, null, new RemoteException(node, code, r.getString()));
            }
            default -> throw new ProtocolException("unexpected " + frame.op() + " from node " + node);
        }
    }

    private void complete(Pending p, Frame frame, Throwable failure) {
        outstanding.decrementAndGet();
        Runnable completion = () -> {
            if (failure != null) {
                p.result.completeExceptionally(failure);
            } else {
                p.result.complete(frame);
            }
        };
        if (p.awaited) {
            completion.run();
        } else {
            callbacks.execute(completion);
        }
    }

    /** Fails requests past their deadline (a stream's deadline moves with each chunk). */
    private void expire() {
        long now = System.nanoTime();
        for (Map.Entry<Long, Pending> e : pending.entrySet()) {
            Pending p = e.getValue();
            if (now - p.deadline > 0 && pending.remove(e.getKey(), p)) {
                if (p.chunks != null) {
                    cancel(e.getKey());
                }
                complete(p, null, new RemoteException(node, ErrorCode.TIMEOUT, p.op + " request to "
                        + address.getHostString() + ":" + address.getPort() + " got no answer within "
                        + TimeUnit.NANOSECONDS.toMillis(p.timeoutNanos) + " ms: the node is not answering"));
            }
        }
    }

    private void failAll(String reason) {
        closedReason = reason;
        for (Long id : List.copyOf(pending.keySet())) {
            Pending p = pending.remove(id);
            if (p != null) {
                complete(p, null, new RemoteException(node, ErrorCode.NODE_UNAVAILABLE, reason));
            }
        }
    }

    @Override
    public void close() {
        sweeper.cancel(false);
        channel.close().syncUninterruptibly();
        failAll("connection closed by this process");
    }

    /** Answers the challenge; completes {@code ready} on AUTH_OK, fails it on a refusal. */
    private static final class Handshake extends ChannelInboundHandlerAdapter {
        private final String member;
        private final String node;
        private final ClusterSecret secret;
        private final CompletableFuture<Void> ready;

        Handshake(String member, String node, ClusterSecret secret, CompletableFuture<Void> ready) {
            this.member = member;
            this.node = node;
            this.secret = secret;
            this.ready = ready;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame f = (Frame) msg;
            switch (f.op()) {
                case CHALLENGE -> {
                    PayloadReader r = f.reader();
                    r.getString();
                    byte[] nonce = r.getBytes();
                    byte[] answer = secret.sign(nonce);
                    ctx.writeAndFlush(new Frame(OpCode.AUTH, 0,
                            new PayloadWriter().putString(member).putBytes(answer).toByteArray()));
                }
                case AUTH_OK -> {
                    ctx.pipeline().remove(this);
                    ready.complete(null);
                }
                case ERROR -> {
                    PayloadReader r = f.reader();
                    ErrorCode code = ErrorCode.of(r.get());
                    ready.completeExceptionally(new RemoteException(node, code, r.getString()));
                    ctx.close();
                }
                default -> ready.completeExceptionally(new RemoteException(node, ErrorCode.MALFORMED_REQUEST,
                        "answered the connection with " + f.op()));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.completeExceptionally(new RemoteException(node, ErrorCode.NODE_UNAVAILABLE,
                    "closed the connection during the handshake"));
            ctx.fireChannelInactive();
        }
    }

    /** Routes answers to their requests; a dropped connection fails everything outstanding. */
    private static final class Answers extends ChannelInboundHandlerAdapter {
        private final java.util.function.Supplier<NodeClient> client;

        Answers(java.util.function.Supplier<NodeClient> client) {
            this.client = client;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            client.get().onAnswer((Frame) msg);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                client.get().scheduleFlush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            NodeClient c = client.get();
            if (c != null) {
                c.sweeper.cancel(false);
                // What this side can tell: the node's end of the connection closed, which is what a node
                // process that ended (crashed, ran out of memory, was killed) looks like from here.
                c.failAll("connection to " + c.address.getHostString() + ":" + c.address.getPort() + LOST);
                LOG.debug("connection to node {} closed", c.node);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            NodeClient c = client.get();
            LOG.warn("closing the connection to node {}: {}", c == null ? "?" : c.node, cause.toString());
            ctx.close();
        }
    }
}

package org.oooengine.core.net;

import io.netty.channel.Channel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.oooengine.core.wire.PayloadWriter;

/**
 * The answer channel of one request: a single reply or error, or a stream of chunks closed by an
 * end frame. Safe to use from any thread. Streams honour the channel's writability: a producer
 * calls {@link #awaitWritable} between chunks, so a slow reader slows the producer down instead
 * of growing a queue.
 */
public final class Responder {
    private final Channel channel;
    private final long requestId;
    private final ReentrantLock lock;
    private final Condition writable;
    private final Runnable onDone;
    private volatile boolean cancelled;
    private volatile boolean done;

    Responder(Channel channel, long requestId, ReentrantLock lock, Condition writable, Runnable onDone) {
        this.channel = channel;
        this.requestId = requestId;
        this.lock = lock;
        this.writable = writable;
        this.onDone = onDone;
    }

    public void reply(byte[] payload) {
        finish(new Frame(OpCode.RESULT, requestId, payload));
    }

    public void fail(ErrorCode code, String message) {
        PayloadWriter w = new PayloadWriter().put(code.code()).putString(message == null ? "" : message);
        finish(new Frame(OpCode.ERROR, requestId, w.toByteArray()));
    }

    public void chunk(byte[] payload) {
        if (!done && !cancelled) {
            channel.writeAndFlush(new Frame(OpCode.STREAM_CHUNK, requestId, payload));
        }
    }

    public void end(byte[] summary) {
        finish(new Frame(OpCode.STREAM_END, requestId, summary));
    }

    /** The requester cancelled the stream, or its connection is gone: producers should stop. */
    public boolean cancelled() {
        return cancelled || !channel.isActive();
    }

    void cancel() {
        cancelled = true;
        signalWritable();
    }

    /**
     * Blocks until the connection can take more data, it closes, or the timeout passes (then
     * false). Never call it on a network thread.
     */
    public boolean awaitWritable(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        lock.lock();
        try {
            while (!channel.isWritable() && !cancelled()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                writable.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * For stream producers between chunks: waits for writability, failing when the requester went
     * away ({@link java.util.concurrent.CancellationException}) or read nothing within the timeout.
     */
    public void awaitWritableOrFail(java.time.Duration timeout) {
        try {
            if (!awaitWritable(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the requester read nothing for " + timeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted");
        }
        if (cancelled()) {
            throw new java.util.concurrent.CancellationException("the requester cancelled or went away");
        }
    }

    void signalWritable() {
        lock.lock();
        try {
            writable.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void finish(Frame frame) {
        if (done) {
            return;
        }
        done = true;
        onDone.run();
        if (!cancelled) {
            channel.writeAndFlush(frame);
        }
    }
}

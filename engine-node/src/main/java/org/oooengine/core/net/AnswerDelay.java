package org.oooengine.core.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Emulated network latency on one machine: holds every byte a node sends back for a fixed time
 * before it reaches the socket, so each request to the node pays that much more round trip. Writes
 * and flushes keep their order (same delay, first-in first-out timer). The timer is a thread of its
 * own because the event loop's own timer rounds waits up to whole milliseconds. While bytes are
 * held they do not count against the channel's write buffer: backpressure reacts one delay later.
 */
final class AnswerDelay extends ChannelOutboundHandlerAdapter {
    private final ScheduledExecutorService timer;
    private final long delayNanos;

    AnswerDelay(ScheduledExecutorService timer, Duration delay) {
        this.timer = timer;
        this.delayNanos = delay.toNanos();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        later(ctx, () -> ctx.write(msg, promise));
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        later(ctx, ctx::flush);
    }

    private void later(ChannelHandlerContext ctx, Runnable action) {
        timer.schedule(() -> ctx.executor().execute(action), delayNanos, TimeUnit.NANOSECONDS);
    }
}

package org.oooengine.hive.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.ThrottledLog;

/**
 * The binary port's protections for one HTTP connection: it takes a slot of the same
 * {@link ConnectionAdmission} (refused with 503 and the reason when there is none), must deliver a
 * whole first request within the handshake timeout (so a client trickling headers cannot hold a
 * slot), and is closed when it sends no request for the idle-connection timeout after a response.
 */
final class HttpConnectionGuard extends ChannelDuplexHandler {
    private static final Logger LOG = LogManager.getLogger(HttpConnectionGuard.class);

    private final ConnectionAdmission admission;
    private final Duration requestTimeout;
    private final Duration idleTimeout;
    private final ThrottledLog closings;
    private ClientAddress client;
    private ScheduledFuture<?> deadline;

    HttpConnectionGuard(ConnectionAdmission admission, Duration requestTimeout, Duration idleTimeout, ThrottledLog closings) {
        this.admission = admission;
        this.requestTimeout = requestTimeout;
        this.idleTimeout = idleTimeout;
        this.closings = closings;
    }

    static ThrottledLog closingsLog() {
        return new ThrottledLog(LOG, Level.WARN, "HTTP connections refused or closed");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ClientAddress address = ClientAddress.of(((InetSocketAddress) ctx.channel().remoteAddress()).getAddress());
        Optional<String> refusal = admission.admit(address);
        if (refusal.isPresent()) {
            closings.log("Refusing HTTP connection from {}: {}", address, refusal.get());
            FullHttpResponse busy = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.SERVICE_UNAVAILABLE,
                    Unpooled.copiedBuffer(refusal.get(), StandardCharsets.UTF_8));
            busy.headers().set(HttpHeaderNames.CONTENT_LENGTH, busy.content().readableBytes());
            ctx.writeAndFlush(busy).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        client = address;
        closeAfter(ctx, requestTimeout, "no complete request within " + EndpointConfig.Limits.format(requestTimeout)
                + " (" + EndpointConfig.Limits.HANDSHAKE_TIMEOUT + ")");
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof FullHttpRequest) {
            cancelDeadline();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof FullHttpResponse) {
            // The next request, whole, within the idle timeout; a slow one within the request timeout
            // is not enforced once the client has proved itself with a request.
            promise.addListener(f -> {
                if (f.isSuccess() && ctx.channel().isActive() && !idleTimeout.isZero()) {
                    closeAfter(ctx, idleTimeout, "no request for " + EndpointConfig.Limits.format(idleTimeout)
                            + " (" + EndpointConfig.Limits.IDLE_CONNECTION_TIMEOUT + ")");
                }
            });
        }
        super.write(ctx, msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        if (client != null) {
            admission.release(client);
            client = null;
        }
        super.channelInactive(ctx);
    }

    private void closeAfter(ChannelHandlerContext ctx, Duration timeout, String why) {
        cancelDeadline();
        deadline = ctx.executor().schedule(() -> {
            closings.log("Closing HTTP connection from {}: {}", client, why);
            ctx.close();
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}

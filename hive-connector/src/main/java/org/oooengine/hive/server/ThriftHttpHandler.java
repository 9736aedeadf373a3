package org.oooengine.hive.server;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.oooengine.core.net.ThrottledLog;

/**
 * One Thrift call per POST to the endpoint's path: the body is the call in the binary protocol,
 * the response body its answer (what Thrift's THttpClient and the Hive JDBC driver send and
 * expect). The login is checked and the call served on a worker thread, since both may wait;
 * the connection reads no further request meanwhile.
 */
final class ThriftHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LogManager.getLogger(ThriftHttpHandler.class);
    private static final String THRIFT_CONTENT_TYPE = "application/x-thrift";

    private final String path;
    private final TProcessor processor;
    private final HttpLogins logins;
    private final Executor workers;
    private final ThrottledLog refusals;

    ThriftHttpHandler(String path, TProcessor processor, HttpLogins logins, Executor workers, ThrottledLog refusals) {
        this.path = "/" + path;
        this.processor = processor;
        this.logins = logins;
        this.workers = workers;
        this.refusals = refusals;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            respond(ctx, HttpResponseStatus.BAD_REQUEST, "malformed HTTP request", false);
            return;
        }
        if (!new QueryStringDecoder(request.uri()).path().equals(path)) {
            respond(ctx, HttpResponseStatus.NOT_FOUND, "the Thrift endpoint is " + path, keepAlive);
            return;
        }
        if (!HttpMethod.POST.equals(request.method())) {
            respond(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "Thrift calls are POST requests", keepAlive);
            return;
        }
        byte[] body = ByteBufUtil.getBytes(request.content());
        String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        ctx.channel().config().setAutoRead(false);
        try {
            workers.execute(() -> serve(ctx, body, authorization, keepAlive));
        } catch (RejectedExecutionException e) {
            respond(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "the server is shutting down", false);
        }
    }

    private void serve(ChannelHandlerContext ctx, byte[] body, String authorization, boolean keepAlive) {
        InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
        String peer = String.valueOf(remote);
        String user;
        try {
            user = logins.userOf(authorization, ClientAddress.of(remote.getAddress()).text());
        } catch (HttpLogins.Refused e) {
            refusals.log("Refusing HTTP request from {}: {}", peer, e.getMessage());
            FullHttpResponse refused = response(HttpResponseStatus.UNAUTHORIZED, e.getMessage());
            refused.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Basic realm=\"ooo\"");
            send(ctx, refused, keepAlive);
            return;
        } catch (InterruptedIOException e) {
            respond(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "the server is shutting down", false);
            return;
        }
        ClientConnection.setCurrent(new ClientConnection(peer, user));
        try {
            TMemoryBuffer out = new TMemoryBuffer(1024);
            processor.process(new TBinaryProtocol(new TMemoryInputTransport(body)), new TBinaryProtocol(out));
            FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(out.getArray(), 0, out.length()));
            answer.headers().set(HttpHeaderNames.CONTENT_TYPE, THRIFT_CONTENT_TYPE);
            send(ctx, answer, keepAlive);
        } catch (TException | RuntimeException e) {
            refusals.log("Bad Thrift request over HTTP from {}: {}", peer, String.valueOf(e.getMessage()));
            LOG.debug("Bad Thrift request over HTTP from {}", peer, e);
            respond(ctx, HttpResponseStatus.BAD_REQUEST, "unreadable Thrift request", false);
        } finally {
            ClientConnection.setCurrent(null);
        }
    }

    private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String message, boolean keepAlive) {
        send(ctx, response(status, message), keepAlive);
    }

    private static FullHttpResponse response(HttpResponseStatus status, String message) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(message + "\n", StandardCharsets.UTF_8));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        return response;
    }

    private static void send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (!keepAlive) {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.writeAndFlush(response).addListener(f -> {
            if (f.isSuccess()) {
                ctx.channel().config().setAutoRead(true);
                ctx.read();
            } else {
                ctx.close();
            }
        });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("HTTP connection from {} failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }
}

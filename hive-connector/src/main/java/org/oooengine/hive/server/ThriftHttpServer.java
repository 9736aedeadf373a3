package org.oooengine.hive.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.TProcessor;
import org.oooengine.core.net.ThrottledLog;

/**
 * The endpoint's HTTP transport: Netty's HTTP codec in front of the same Thrift service as the
 * binary port, under the same connection limits and login throttle.
 */
final class ThriftHttpServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ThriftHttpServer.class);
    /** Requests are Thrift calls (statements, handles): far smaller than this. */
    static final int MAX_REQUEST_BYTES = 16 << 20;
    private static final int MAX_HEADER_BYTES = 16 << 10;

    private final EventLoopGroup acceptor;
    private final EventLoopGroup connections;
    private final Channel listener;
    private final ThrottledLog closings;
    private final ThrottledLog refusals;

    private ThriftHttpServer(EventLoopGroup acceptor, EventLoopGroup connections, Channel listener, ThrottledLog closings,
                             ThrottledLog refusals) {
        this.acceptor = acceptor;
        this.connections = connections;
        this.listener = listener;
        this.closings = closings;
        this.refusals = refusals;
    }

    static ThriftHttpServer start(String host, EndpointConfig.Http http, TProcessor processor, HttpLogins logins,
                                  ConnectionAdmission admission, EndpointConfig.Limits limits, Executor workers)
            throws IOException {
        EventLoopGroup acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("hs2-http-accept", true));
        EventLoopGroup connections = new NioEventLoopGroup(1, new DefaultThreadFactory("hs2-http", true));
        ThrottledLog closings = HttpConnectionGuard.closingsLog();
        ThrottledLog refusals = new ThrottledLog(LOG, Level.WARN, "refused HTTP requests");
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, connections)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 128)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new HttpServerCodec(4096, MAX_HEADER_BYTES, 8192))
                                .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                .addLast(new HttpConnectionGuard(admission, limits.handshakeTimeout(),
                                        limits.idleConnectionTimeout(), closings))
                                .addLast(new ThriftHttpHandler(http.path(), processor, logins, workers, refusals));
                    }
                });
        try {
            Channel listener = bootstrap.bind(new InetSocketAddress(host, http.port())).sync().channel();
            return new ThriftHttpServer(acceptor, connections, listener, closings, refusals);
        } catch (Exception e) {
            acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            connections.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IOException("cannot serve HTTP on " + host + ":" + http.port() + ": " + e.getMessage(), e);
        }
    }

    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    void flushLog() {
        closings.flush();
        refusals.flush();
    }

    @Override
    public void close() {
        listener.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        connections.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
}

package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.ProtocolException;

/**
 * A stream whose end frame its requester cannot read fails naming the node, and the connection
 * closes: nothing the node sends after it can be trusted.
 */
class MalformedEndTest {
    private final ClusterSecret secret = ClusterSecret.generate();
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);

    @AfterEach
    void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void anEndFrameThatDoesNotReadClosesTheConnection() throws Exception {
        RequestHandler endsAtOnce = (request, responder) -> responder.end(new byte[] {1, 2, 3});
        try (NodeServer server = NodeServer.start("n2", new InetSocketAddress("127.0.0.1", 0), secret, endsAtOnce);
             NodeClient client = NodeClient.connect("coordinator", "n2", new InetSocketAddress("127.0.0.1", server.port()),
                     secret, group, Runnable::run, Duration.ofSeconds(10))) {
            CompletableFuture<Frame> unchecked = client.stream(OpCode.PARTITION_STATS, new byte[0], chunk -> { });
            assertEquals(3, unchecked.get(10, TimeUnit.SECONDS).payload().length, "no check: the frame as it came");

            CompletableFuture<Frame> checked = client.stream(OpCode.PARTITION_STATS, new byte[0], chunk -> { }, end -> {
                throw new ProtocolException("a summary of " + end.payload().length + " bytes");
            });
            CompletionException e = assertThrows(CompletionException.class, () -> checked.orTimeout(10, TimeUnit.SECONDS).join());
            RemoteException re = (RemoteException) e.getCause();
            assertEquals(ErrorCode.MALFORMED_REQUEST, re.code());
            assertTrue(re.getMessage().startsWith("node n2 ended PARTITION_STATS with a malformed answer, closing the "
                    + "connection: a summary of 3 bytes"), re.getMessage());

            CompletableFuture<Frame> after = client.call(OpCode.PARTITION_STATS, new byte[0]);
            CompletionException closed = assertThrows(CompletionException.class, () -> after.orTimeout(10, TimeUnit.SECONDS).join());
            assertEquals(ErrorCode.NODE_UNAVAILABLE, ((RemoteException) closed.getCause()).code());
        }
    }
}

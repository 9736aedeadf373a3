package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node's last word: the requests it holds open, on every connection, are answered with the error
 * it gives (a node out of memory, before it ends), naming the node; what comes after is refused as
 * a lost connection that says the node ended.
 */
class NodeFarewellTest {
    private final ClusterSecret secret = ClusterSecret.generate();
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);

    @AfterEach
    void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void openRequestsOfEveryConnectionHearWhyTheNodeEnds() throws Exception {
        List<Responder> held = new CopyOnWriteArrayList<>();
        RequestHandler holdsEverything = (request, responder) -> held.add(responder);
        try (NodeServer server = NodeServer.start("n2", new InetSocketAddress("127.0.0.1", 0), secret, holdsEverything);
             NodeClient a = connect(server, "coordinator");
             NodeClient b = connect(server, "n1")) {
            CompletableFuture<Frame> scan = a.stream(OpCode.PARTITION_STATS, new byte[0], chunk -> { });
            CompletableFuture<Frame> call = b.call(OpCode.PARTITION_STATS, new byte[0]);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (held.size() < 2) {
                assertTrue(System.nanoTime() < deadline, "the requests did not arrive");
                Thread.sleep(10);
            }

            server.failOpenRequests(ErrorCode.OUT_OF_MEMORY,
                    "node n2 ran out of memory: it spent 97% of the last 30 s in garbage collection; it ends now");

            for (CompletableFuture<Frame> f : List.of(scan, call)) {
                CompletionException e = assertThrows(CompletionException.class, () -> f.orTimeout(10, TimeUnit.SECONDS).join());
                RemoteException re = (RemoteException) e.getCause();
                assertEquals(ErrorCode.OUT_OF_MEMORY, re.code());
                assertEquals("n2", re.node());
                assertEquals("node n2 ran out of memory: it spent 97% of the last 30 s in garbage collection; it ends now",
                        re.getMessage());
            }
        }
    }

    @Test
    void aConnectionLostSaysTheNodeEnded() throws Exception {
        NodeServer server = NodeServer.start("n2", new InetSocketAddress("127.0.0.1", 0), secret, (request, responder) -> { });
        try (NodeClient a = connect(server, "coordinator")) {
            CompletableFuture<Frame> call = a.call(OpCode.PARTITION_STATS, new byte[0]);
            server.close();
            CompletionException e = assertThrows(CompletionException.class, () -> call.orTimeout(10, TimeUnit.SECONDS).join());
            RemoteException re = (RemoteException) e.getCause();
            assertEquals(ErrorCode.NODE_UNAVAILABLE, re.code());
            assertTrue(re.getMessage().startsWith("node n2: connection to 127.0.0.1:") && re.getMessage()
                    .endsWith(" lost: the node ended or dropped the connection"), re::getMessage);
        }
    }

    private NodeClient connect(NodeServer server, String member) {
        return NodeClient.connect(member, "n2", new InetSocketAddress("127.0.0.1", server.port()), secret, group,
                Runnable::run, Duration.ofSeconds(10));
    }
}

package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A node started with an answer delay answers every request correctly, each no sooner than the delay. */
class AnswerDelayTest {
    private static final Duration DELAY = Duration.ofMillis(30);

    @Test
    void everyAnswerArrivesCorrectAndNoSoonerThanTheDelay() {
        ClusterSecret secret = ClusterSecret.generate();
        RequestHandler echo = (request, responder) -> responder.reply(request.payload());
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        try (NodeServer server = NodeServer.start("n1", new InetSocketAddress("127.0.0.1", 0), secret, echo, DELAY);
             NodeClient client = NodeClient.connect("test", "n1", new InetSocketAddress("127.0.0.1", server.port()),
                     secret, group, Runnable::run, Duration.ofSeconds(5))) {
            List<CompletableFuture<Frame>> answers = new ArrayList<>();
            List<Long> sent = new ArrayList<>();
            long[] arrived = new long[50];
            for (int i = 0; i < arrived.length; i++) {
                int n = i;
                sent.add(System.nanoTime());
                answers.add(client.call(OpCode.PARTITION_STATS, new byte[] {(byte) i})
                        .whenComplete((f, e) -> arrived[n] = System.nanoTime()));
            }
            for (int i = 0; i < arrived.length; i++) {
                assertArrayEquals(new byte[] {(byte) i}, answers.get(i).join().payload());
                long waited = arrived[i] - sent.get(i);
                assertTrue(waited >= DELAY.toNanos(), "answer " + i + " came after " + waited / 1000 + " µs");
            }
        } finally {
            group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}

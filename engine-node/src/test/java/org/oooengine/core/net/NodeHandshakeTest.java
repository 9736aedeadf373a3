package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.PayloadReader;

/**
 * A node's port against peers that do not prove the cluster secret: idle ones are closed at the
 * handshake deadline, a frame announced above the limit for strangers closes the connection before
 * its body is buffered, and members are served all along, with the full frame size.
 */
class NodeHandshakeTest {
    private static final Duration SHORT_DEADLINE = Duration.ofSeconds(2);
    /** Long enough that only the frame limit can be what closes a connection. */
    private static final Duration LONG_DEADLINE = Duration.ofMinutes(1);
    private static final RequestHandler ECHO = (request, responder) -> responder.reply(request.payload());
    private static final byte[] HELLO = {1, 2, 3};

    private final ClusterSecret secret = ClusterSecret.generate();
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);
    private final List<RawPeer> strangers = new ArrayList<>();

    @AfterEach
    void closeEverything() throws IOException {
        for (RawPeer p : strangers) {
            p.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void idleStrangersAreClosedAtTheDeadlineWhileAMemberIsServed() throws IOException {
        try (NodeServer server = start(SHORT_DEADLINE)) {
            long opened = System.nanoTime();
            connectStrangers(server, 500);
            try (NodeClient member = connect(server, secret)) {
                assertArrayEquals(HELLO, member.call(OpCode.PARTITION_STATS, HELLO).join().payload());

                for (RawPeer stranger : strangers) {
                    assertEquals(OpCode.CHALLENGE, stranger.read().op());
                    Frame refusal = stranger.read();
                    assertEquals(OpCode.ERROR, refusal.op());
                    PayloadReader r = refusal.reader();
                    assertEquals(ErrorCode.TIMEOUT, ErrorCode.of(r.get()));
                    assertEquals("refused by node n1: no proof of the cluster secret within 2000 ms", r.getString());
                    assertTrue(stranger.closedWithin(Duration.ofSeconds(5)), "a stranger is still connected");
                }
                long waited = System.nanoTime() - opened;
                assertTrue(waited >= SHORT_DEADLINE.toNanos(), "strangers closed after " + waited / 1_000_000 + " ms");

                // The member authenticated in time and keeps its connection past the deadline.
                assertTrue(member.isOpen());
                assertArrayEquals(HELLO, member.call(OpCode.PARTITION_STATS, HELLO).join().payload());
            }
        }
    }

    @Test
    void aFloodOfPartialFramesLeavesDirectMemoryFlat() throws IOException {
        try (NodeServer server = start(LONG_DEADLINE); NodeClient member = connect(server, secret)) {
            // Every network thread of the node has sent a challenge: their buffer arenas are in use
            // before the baseline, so what follows measures buffered frames only.
            connectStrangers(server, 16);
            for (RawPeer p : strangers) {
                assertEquals(OpCode.CHALLENGE, p.read().op());
            }
            assertArrayEquals(HELLO, member.call(OpCode.PARTITION_STATS, HELLO).join().payload());
            long before = usedDirectMemory();

            List<RawPeer> flood = connectStrangers(server, 64);
            byte[] header = ByteBuffer.allocate(4).putInt(15 << 20).array();
            byte[] part = new byte[1 << 20];
            for (RawPeer p : flood) {
                try {
                    p.write(header);
                    p.write(part);
                } catch (IOException closedByTheNode) {
                    // the node may close the connection before all of it is sent
                }
            }
            long during = usedDirectMemory();
            boolean[] closed = new boolean[flood.size()];
            for (int i = 0; i < closed.length; i++) {
                closed[i] = flood.get(i).closedWithin(Duration.ofSeconds(5));
            }
            long after = usedDirectMemory();
            // Buffered, the partial frames would hold tens of MiB; a new chunk of the pool is 4 MiB.
            long grown = Math.max(during, after) - before;
            assertTrue(grown < 8 << 20, "direct memory grew by " + (grown >> 10) + " KiB (" + (before >> 10)
                    + " KiB before the flood, " + (during >> 10) + " KiB during, " + (after >> 10) + " KiB after)");
            for (boolean c : closed) {
                assertTrue(c, "a connection announcing 15 MiB is still open");
            }

            // Members still work, with frames far above the limit for strangers.
            byte[] large = new byte[4 << 20];
            new Random(17).nextBytes(large);
            assertArrayEquals(large, member.call(OpCode.PARTITION_STATS, large).join().payload());
            try (NodeClient another = connect(server, secret)) {
                assertArrayEquals(HELLO, another.call(OpCode.PARTITION_STATS, HELLO).join().payload());
            }
        }
    }

    @Test
    void aFrameJustAboveTheLimitClosesAStrangerAndOneAtItIsRead() throws IOException {
        try (NodeServer server = start(LONG_DEADLINE)) {
            RawPeer over = connectStrangers(server, 1).get(0);
            over.write(ByteBuffer.allocate(4).putInt(FrameFormat.MAX_UNAUTHENTICATED_FRAME_BYTES + 1).array());
            assertTrue(over.closedWithin(Duration.ofSeconds(5)));

            // A frame of exactly the limit is read: being no AUTH, it is refused with a message.
            RawPeer at = connectStrangers(server, 1).get(0);
            assertEquals(OpCode.CHALLENGE, at.read().op());
            byte[] payload = new byte[FrameFormat.MAX_UNAUTHENTICATED_FRAME_BYTES - FrameFormat.HEADER_BYTES];
            at.write(new Frame(OpCode.PARTITION_STATS, 1, payload));
            assertRefused(at, ErrorCode.AUTH_FAILED, "refused by node n1: wrong or missing cluster secret");
        }
    }

    @Test
    void aWrongSecretIsRefusedWithAMessageAndMembersGoOn() {
        try (NodeServer server = start(LONG_DEADLINE)) {
            RemoteException e = assertThrows(RemoteException.class, () -> connect(server, ClusterSecret.generate()));
            assertEquals(ErrorCode.AUTH_FAILED, e.code());
            // the node names itself once: the client's RemoteException adds no second "node n1: "
            assertEquals("refused by node n1: wrong or missing cluster secret", e.getMessage());
            try (NodeClient member = connect(server, secret)) {
                assertArrayEquals(HELLO, member.call(OpCode.PARTITION_STATS, HELLO).join().payload());
            }
        }
    }

    @Test
    void requestsRightBehindTheAuthFrameAreServedAtTheFullFrameSize() throws IOException {
        try (NodeServer server = start(LONG_DEADLINE)) {
            RawPeer peer = connectStrangers(server, 1).get(0);
            byte[] large = new byte[1 << 20];
            new Random(3).nextBytes(large);
            // One write: the request's bytes arrive with the AUTH frame, before the node lifts the limit.
            ByteArrayOutputStream both = new ByteArrayOutputStream();
            both.writeBytes(RawPeer.encode(peer.answer(secret)));
            both.writeBytes(RawPeer.encode(new Frame(OpCode.PARTITION_STATS, 7, large)));
            peer.write(both.toByteArray());

            assertEquals(OpCode.AUTH_OK, peer.read().op());
            Frame answer = peer.read();
            assertEquals(OpCode.RESULT, answer.op());
            assertEquals(7, answer.requestId());
            assertArrayEquals(large, answer.payload());
        }
    }

    @Test
    void aBadFrameFromAMemberClosesOnlyItsConnection() throws IOException {
        try (NodeServer server = start(LONG_DEADLINE); NodeClient member = connect(server, secret)) {
            RawPeer peer = connectStrangers(server, 1).get(0);
            peer.authenticate(secret);
            byte[] bad = RawPeer.encode(new Frame(OpCode.PARTITION_STATS, 1, HELLO));
            bad[FrameFormat.LENGTH_BYTES] = 99; // the version byte
            peer.write(bad);
            assertTrue(peer.closedWithin(Duration.ofSeconds(5)));
            assertArrayEquals(HELLO, member.call(OpCode.PARTITION_STATS, HELLO).join().payload());
        }
    }

    private NodeServer start(Duration handshakeDeadline) {
        return NodeServer.start("n1", new InetSocketAddress("127.0.0.1", 0), secret, ECHO, Duration.ZERO,
                handshakeDeadline);
    }

    private NodeClient connect(NodeServer server, ClusterSecret key) {
        return NodeClient.connect("member", "n1", new InetSocketAddress("127.0.0.1", server.port()), key, group,
                Runnable::run, Duration.ofSeconds(10));
    }

    /** Plain sockets that connect and then do only what the test makes them do. */
    private List<RawPeer> connectStrangers(NodeServer server, int n) throws IOException {
        List<RawPeer> peers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RawPeer p = new RawPeer(server.port());
            strangers.add(p);
            peers.add(p);
        }
        return peers;
    }

    private static void assertRefused(RawPeer peer, ErrorCode code, String message) throws IOException {
        Frame refusal = peer.read();
        assertEquals(OpCode.ERROR, refusal.op());
        PayloadReader r = refusal.reader();
        assertEquals(code, ErrorCode.of(r.get()));
        assertEquals(message, r.getString());
        assertTrue(peer.closedWithin(Duration.ofSeconds(5)));
    }

    /** Direct memory the node's buffers hold (Netty's default allocator, which its channels use). */
    private static long usedDirectMemory() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }
}

package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.ProtocolException;

/**
 * Frames LZ4-compressed between members: long compressible payloads go shorter and arrive whole,
 * short or incompressible ones go as they are, a corrupt or lying block closes the connection that
 * sent it, and a peer that has not proved the cluster secret cannot send a compressed frame.
 */
class FrameCompressionTest {
    private static final RequestHandler ECHO = (request, responder) -> responder.reply(request.payload());

    private final ClusterSecret secret = ClusterSecret.generate();
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);

    @AfterEach
    void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Rows of text, as a chunk of table rows compresses: repeated words, growing numbers. */
    private static byte[] compressible(int bytes) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < bytes; i++) {
            b.append(i).append("|Customer#").append(i % 1000).append("|1998-09-02|AIR|carefully final deposits|");
        }
        return b.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] random(int bytes, long seed) {
        byte[] b = new byte[bytes];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static ByteBuf encoded(Frame frame) {
        ByteBuf out = Unpooled.buffer(FrameFormat.wireSize(frame.payload().length));
        FrameFormat.encode(frame, new Lz4Compressor(), out);
        return out;
    }

    /** The frame read back from what follows its length, as a member's decoder reads it. */
    private static Frame decoded(ByteBuf wire) {
        int length = wire.readInt();
        assertEquals(length, wire.readableBytes());
        return FrameFormat.decode(wire, new Lz4Decompressor());
    }

    @Test
    void longCompressiblePayloadsGoShorterAndArriveWhole() {
        byte[] payload = compressible(256 << 10);
        ByteBuf wire = encoded(new Frame(OpCode.RESULT, 42, payload));
        assertTrue(wire.readableBytes() < payload.length / 2, "sent " + wire.readableBytes() + " bytes of " + payload.length);
        assertEquals(FrameFormat.LZ4, wire.getByte(FrameFormat.LENGTH_BYTES + 2), "flagged compressed");
        Frame back = decoded(wire);
        assertEquals(OpCode.RESULT, back.op());
        assertEquals(42, back.requestId());
        assertArrayEquals(payload, back.payload());
    }

    @Test
    void shortOrIncompressiblePayloadsGoAsTheyAre() {
        for (byte[] payload : new byte[][] {compressible(FrameFormat.COMPRESS_MIN_BYTES - 1), random(64 << 10, 1), new byte[0]}) {
            ByteBuf wire = encoded(new Frame(OpCode.RESULT, 1, payload));
            assertEquals(FrameFormat.wireSize(payload.length), wire.readableBytes());
            assertEquals(0, wire.getByte(FrameFormat.LENGTH_BYTES + 2), "not flagged");
            assertArrayEquals(payload, decoded(wire).payload());
        }
    }

    @Test
    void aCorruptOrLyingBlockIsAProtocolError() {
        byte[] payload = compressible(64 << 10);
        int lengthAt = FrameFormat.LENGTH_BYTES + FrameFormat.HEADER_BYTES;
        ByteBuf lying = encoded(new Frame(OpCode.RESULT, 1, payload));
        lying.setInt(lengthAt, payload.length + 1);
        assertTrue(assertThrows(ProtocolException.class, () -> decoded(lying)).getMessage().contains("LZ4"));

        ByteBuf huge = encoded(new Frame(OpCode.RESULT, 1, payload));
        huge.setInt(lengthAt, FrameFormat.MAX_FRAME_BYTES);
        assertTrue(assertThrows(ProtocolException.class, () -> decoded(huge)).getMessage().contains("beyond the frame limit"));

        // every way of damaging the block is caught, none reads past it
        Random r = new Random(7);
        for (int i = 0; i < 500; i++) {
            ByteBuf damaged = encoded(new Frame(OpCode.RESULT, 1, payload));
            int at = lengthAt + 4 + r.nextInt(damaged.readableBytes() - lengthAt - 4);
            damaged.setByte(at, r.nextInt(256));
            if (r.nextBoolean()) {
                damaged.writerIndex(at + 1); // and cut there
                damaged.setInt(0, damaged.readableBytes() - FrameFormat.LENGTH_BYTES);
            }
            try {
                assertEquals(payload.length, decoded(damaged).payload().length); // a literal's byte may change unnoticed
            } catch (ProtocolException expected) {
                // refused, as it should be
            }
        }

        ByteBuf flags = encoded(new Frame(OpCode.RESULT, 1, payload));
        flags.setByte(FrameFormat.LENGTH_BYTES + 2, 2);
        assertTrue(assertThrows(ProtocolException.class, () -> decoded(flags)).getMessage().contains("flags"));
    }

    @Test
    void membersCompressingTheirFramesAreServedAndUnderstoodByOthers() {
        byte[] payload = compressible(1 << 20);
        try (NodeServer lz4 = server(WireCompression.LZ4); NodeServer plain = server(WireCompression.NONE)) {
            for (NodeServer server : new NodeServer[] {lz4, plain}) {
                for (WireCompression client : WireCompression.values()) {
                    try (NodeClient member = connect(server, client)) {
                        assertArrayEquals(payload, member.call(OpCode.PARTITION_STATS, payload).join().payload());
                    }
                }
            }
        }
    }

    @Test
    void aStrangerCannotSendACompressedFrame() throws IOException {
        try (NodeServer server = server(WireCompression.LZ4); NodeClient member = connect(server, WireCompression.LZ4)) {
            try (RawPeer stranger = new RawPeer(server.port())) {
                assertEquals(OpCode.CHALLENGE, stranger.read().op());
                ByteBuf wire = encoded(new Frame(OpCode.AUTH, 0, compressible(FrameFormat.COMPRESS_MIN_BYTES)));
                byte[] bytes = new byte[wire.readableBytes()];
                wire.readBytes(bytes);
                assertTrue(bytes.length < FrameFormat.MAX_UNAUTHENTICATED_FRAME_BYTES, "within the strangers' frame limit");
                stranger.write(bytes);
                assertTrue(stranger.closedWithin(Duration.ofSeconds(5)));
            }
            byte[] payload = compressible(64 << 10);
            assertArrayEquals(payload, member.call(OpCode.PARTITION_STATS, payload).join().payload());
        }
    }

    private NodeServer server(WireCompression compression) {
        return NodeServer.start("n1", new InetSocketAddress("127.0.0.1", 0), secret, ECHO, Duration.ZERO,
                Duration.ofMinutes(1), compression);
    }

    private NodeClient connect(NodeServer server, WireCompression compression) {
        return NodeClient.connect("member", "n1", new InetSocketAddress("127.0.0.1", server.port()), secret, group,
                Runnable::run, Duration.ofSeconds(10), compression);
    }
}

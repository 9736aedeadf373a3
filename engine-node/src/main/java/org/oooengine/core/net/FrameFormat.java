package org.oooengine.core.net;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * The wire format and its version; no other class knows the byte layout of a frame.
 *
 * <pre>
 * int32  length    bytes that follow: 11 + payload length (as sent)
 * int8   version   {@link #VERSION}
 * int8   op        {@link OpCode}
 * int8   flags     {@link #LZ4}: the payload is compressed; no other bit is defined
 * int64  request   chosen by the requester; every answer carries the id of its request
 * bytes  payload   op-specific, built with {@link PayloadWriter}; where compressed, an int32 of
 *                  its length, then an LZ4 block of it
 * </pre>
 * A frame longer than {@link #MAX_FRAME_BYTES} (compressed or not), with another version, an
 * unknown op or flag, or an LZ4 block that does not decode to the length it announces is a
 * {@link ProtocolException}: the connection is closed, since nothing after it can be trusted.
 * Until a peer has proved the cluster secret a node takes frames of at most
 * {@link #MAX_UNAUTHENTICATED_FRAME_BYTES}, none compressed, so a stranger cannot make it buffer more.
 * Version 2: a join fragment carries a chain of probes (version 1: exactly one). Version 3: every
 * table of a join fragment carries an alias, so a table may be joined twice. Version 4: a partial
 * aggregate's state is three values per aggregate (a variance's mean and squared deviations).
 * Version 5: a node pipeline's closing summary carries seven figures (its peak memory, the rows
 * it spilled and the bytes it sent besides rows, time and bytes spilled). Version 6: chunks of
 * rows go column by column. Version 7: a pipeline, shuffle or join fragment names the partition it
 * runs over (a node may serve another's from its copy), and a shuffle to a table's partitions has an
 * exchange per partition. Version 8: an index join's fragment says whether it hedges its slow
 * requests. Version 9: a pipeline's broadcast rows go column by column, as chunks do. Version 10:
 * a pipeline may name files to write its rows into. Version 11: so may the steps over an exchange.
 * Version 12: a flags byte, and payloads may be LZ4-compressed ({@link WireCompression}).
 */
public final class FrameFormat {
    public static final byte VERSION = 12;
    public static final int MAX_FRAME_BYTES = 16 << 20;
    /**
     * Longest frame a node reads from a peer that has not authenticated: the AUTH frame (a member
     * name and a 32-byte HMAC) with ample room for the name.
     */
    public static final int MAX_UNAUTHENTICATED_FRAME_BYTES = 4 << 10;
    private static final String FRAMES = "frames";
    private static final String DECODER = "frame-decoder";
    static final int LENGTH_BYTES = 4;
    static final int HEADER_BYTES = 1 + 1 + 1 + 8;
    /** The flag of a compressed payload. */
    static final byte LZ4 = 1;
    /** Shorter payloads go as they are: requests and most answers, whose compression would only cost. */
    public static final int COMPRESS_MIN_BYTES = 4 << 10;

    private FrameFormat() {
    }

    /** Adds the frame codec to a fresh pipeline: frames sent compressed as {@code compression} says. */
    public static void install(ChannelPipeline pipeline, WireCompression compression) {
        install(pipeline, MAX_FRAME_BYTES, true, compression);
    }

    /**
     * Adds the frame codec for a peer that has not authenticated yet: a frame announcing more than
     * {@link #MAX_UNAUTHENTICATED_FRAME_BYTES} fails with a {@link TooLongFrameException} as soon as
     * its length is read, before its body is buffered. {@link #admitMember} lifts the limit.
     */
    static void installUnauthenticated(ChannelPipeline pipeline, WireCompression compression) {
        install(pipeline, MAX_UNAUTHENTICATED_FRAME_BYTES, false, compression);
    }

    /**
     * Lets an authenticated peer send frames up to {@link #MAX_FRAME_BYTES}. Bytes already read
     * past the AUTH frame go on to the new splitter (Netty hands a replaced decoder's leftovers to
     * its successor). From then on its frames may be compressed.
     */
    static void admitMember(ChannelPipeline pipeline) {
        pipeline.replace(FRAMES, FRAMES, splitter(MAX_FRAME_BYTES));
        pipeline.replace(DECODER, DECODER, new Decoder(true));
    }

    private static void install(ChannelPipeline pipeline, int maxFrameBytes, boolean takesCompressed,
                                WireCompression compression) {
        pipeline.addLast(FRAMES, splitter(maxFrameBytes));
        pipeline.addLast(DECODER, new Decoder(takesCompressed));
        pipeline.addLast("frame-encoder", new Encoder(compression));
    }

    /** Splits the byte stream at frame boundaries; fails fast, discarding instead of buffering a frame too long. */
    private static LengthFieldBasedFrameDecoder splitter(int maxFrameBytes) {
        return new LengthFieldBasedFrameDecoder(LENGTH_BYTES + maxFrameBytes, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true);
    }

    /** Bytes a frame with this payload occupies on the wire. */
    public static int wireSize(int payloadBytes) {
        return LENGTH_BYTES + HEADER_BYTES + payloadBytes;
    }

    /** A frame from its bytes after the length; compressed frames refused. */
    static Frame decode(ByteBuf in) {
        return decode(in, null);
    }

    /**
     * A frame from its bytes after the length, its payload decompressed with {@code lz4} where it
     * came compressed; null {@code lz4}: a compressed frame is refused.
     */
    static Frame decode(ByteBuf in, Lz4Decompressor lz4) {
        int length = in.readableBytes();
        if (length < HEADER_BYTES) {
            throw new ProtocolException("frame of " + length + " bytes is shorter than its " + HEADER_BYTES + "-byte header");
        }
        byte version = in.readByte();
        if (version != VERSION) {
            throw new ProtocolException("frame version " + version + ", this node speaks version " + VERSION);
        }
        byte code = in.readByte();
        OpCode op = OpCode.of(code);
        if (op == null) {
            throw new ProtocolException("unknown op code " + code);
        }
        byte flags = in.readByte();
        if ((flags & ~LZ4) != 0) {
            throw new ProtocolException("unknown frame flags " + flags);
        }
        long requestId = in.readLong();
        byte[] payload;
        if (flags == LZ4) {
            if (lz4 == null) {
                throw new ProtocolException("a compressed frame before the peer authenticated");
            }
            payload = decompress(in, lz4);
        } else {
            payload = new byte[in.readableBytes()];
            in.readBytes(payload);
        }
        return new Frame(op, requestId, payload);
    }

    private static byte[] decompress(ByteBuf in, Lz4Decompressor lz4) {
        if (in.readableBytes() < Integer.BYTES) {
            throw new ProtocolException("a compressed frame without its payload's length");
        }
        int length = in.readInt();
        if (length < 0 || length > MAX_FRAME_BYTES - HEADER_BYTES) {
            throw new ProtocolException("a compressed frame announcing " + length + " bytes, beyond the frame limit of "
                    + MAX_FRAME_BYTES);
        }
        byte[] block = new byte[in.readableBytes()];
        in.readBytes(block);
        byte[] payload = new byte[length];
        int decoded;
        try {
            decoded = lz4.decompress(block, 0, block.length, payload, 0, length);
        } catch (MalformedInputException | ArrayIndexOutOfBoundsException e) {
            throw new ProtocolException("a compressed frame's LZ4 block is corrupt at offset " + (e instanceof MalformedInputException m
                    ? m.getOffset() : -1) + " of " + block.length + " bytes");
        }
        if (decoded != length) {
            throw new ProtocolException("a compressed frame's LZ4 block holds " + decoded + " bytes, not the " + length
                    + " it announces");
        }
        return payload;
    }

    static void encode(Frame frame, ByteBuf out) {
        checkLength(frame);
        out.writeInt(HEADER_BYTES + frame.payload().length);
        writeHeader(frame, (byte) 0, out);
        out.writeBytes(frame.payload());
    }

    private static void checkLength(Frame frame) {
        if (frame.payload().length > MAX_FRAME_BYTES - HEADER_BYTES) {
            throw new IllegalArgumentException(frame + " exceeds the frame limit of " + MAX_FRAME_BYTES + " bytes");
        }
    }

    private static void writeHeader(Frame frame, byte flags, ByteBuf out) {
        out.writeByte(VERSION);
        out.writeByte(frame.op().code());
        out.writeByte(flags);
        out.writeLong(frame.requestId());
    }

    /**
     * The frame with its payload LZ4-compressed, where it is at least {@link #COMPRESS_MIN_BYTES}
     * long and compresses to seven eighths of that or less; else as {@link #encode} writes it.
     */
    static void encode(Frame frame, Lz4Compressor lz4, ByteBuf out) {
        byte[] payload = frame.payload();
        if (payload.length >= COMPRESS_MIN_BYTES) {
            checkLength(frame);
            byte[] block = new byte[lz4.maxCompressedLength(payload.length)];
            int n = lz4.compress(payload, 0, payload.length, block, 0, block.length);
            if (Integer.BYTES + n <= payload.length - payload.length / 8) {
                out.writeInt(HEADER_BYTES + Integer.BYTES + n);
                writeHeader(frame, LZ4, out);
                out.writeInt(payload.length);
                out.writeBytes(block, 0, n);
                return;
            }
        }
        encode(frame, out);
    }

    /** Turns each length-delimited buffer into a {@link Frame}; the buffer is released after. */
    private static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        /** Null until the peer may send compressed frames. */
        private final Lz4Decompressor lz4;

        Decoder(boolean takesCompressed) {
            this.lz4 = takesCompressed ? new Lz4Decompressor() : null;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            out.add(FrameFormat.decode(in, lz4));
        }
    }

    /** Writes each {@link Frame}, compressed as the process's {@link WireCompression} says; one per channel. */
    private static final class Encoder extends MessageToByteEncoder<Frame> {
        /** Null where frames go as they are. */
        private final Lz4Compressor lz4;

        Encoder(WireCompression compression) {
            this.lz4 = compression == WireCompression.LZ4 ? new Lz4Compressor() : null;
        }

        @Override
        protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Frame frame, boolean preferDirect) {
            return ctx.alloc().ioBuffer(wireSize(frame.payload().length));
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Frame frame, ByteBuf out) {
            if (lz4 == null) {
                FrameFormat.encode(frame, out);
            } else {
                FrameFormat.encode(frame, lz4, out);
            }
        }
    }
}

package org.oooengine.core.net;

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
 * int32  length    bytes that follow: 10 + payload length
 * int8   version   {@link #VERSION}
 * int8   op        {@link OpCode}
 * int64  request   chosen by the requester; every answer carries the id of its request
 * bytes  payload   op-specific, built with {@link PayloadWriter}
 * </pre>
 * A frame longer than {@link #MAX_FRAME_BYTES}, with another version or an unknown op is a
 * {@link ProtocolException}: the connection is closed, since nothing after it can be trusted.
 * Until a peer has proved the cluster secret a node takes frames of at most
 * {@link #MAX_UNAUTHENTICATED_FRAME_BYTES}, so a stranger cannot make it buffer more.
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
 */
public final class FrameFormat {
    public static final byte VERSION = 11;
    public static final int MAX_FRAME_BYTES = 16 << 20;
    /**
     * Longest frame a node reads from a peer that has not authenticated: the AUTH frame (a member
     * name and a 32-byte HMAC) with ample room for the name.
     */
    public static final int MAX_UNAUTHENTICATED_FRAME_BYTES = 4 << 10;
    private static final String FRAMES = "frames";
    static final int LENGTH_BYTES = 4;
    static final int HEADER_BYTES = 1 + 1 + 8;

    private FrameFormat() {
    }

    /** Adds the frame codec to a fresh pipeline. */
    public static void install(ChannelPipeline pipeline) {
        install(pipeline, MAX_FRAME_BYTES);
    }

    /**
     * Adds the frame codec for a peer that has not authenticated yet: a frame announcing more than
     * {@link #MAX_UNAUTHENTICATED_FRAME_BYTES} fails with a {@link TooLongFrameException} as soon as
     * its length is read, before its body is buffered. {@link #admitMember} lifts the limit.
     */
    static void installUnauthenticated(ChannelPipeline pipeline) {
        install(pipeline, MAX_UNAUTHENTICATED_FRAME_BYTES);
    }

    /**
     * Lets an authenticated peer send frames up to {@link #MAX_FRAME_BYTES}. Bytes already read
     * past the AUTH frame go on to the new splitter (Netty hands a replaced decoder's leftovers to
     * its successor).
     */
    static void admitMember(ChannelPipeline pipeline) {
        pipeline.replace(FRAMES, FRAMES, splitter(MAX_FRAME_BYTES));
    }

    private static void install(ChannelPipeline pipeline, int maxFrameBytes) {
        pipeline.addLast(FRAMES, splitter(maxFrameBytes));
        pipeline.addLast("frame-decoder", new Decoder());
        pipeline.addLast("frame-encoder", new Encoder());
    }

    /** Splits the byte stream at frame boundaries; fails fast, discarding instead of buffering a frame too long. */
    private static LengthFieldBasedFrameDecoder splitter(int maxFrameBytes) {
        return new LengthFieldBasedFrameDecoder(LENGTH_BYTES + maxFrameBytes, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true);
    }

    /** Bytes a frame with this payload occupies on the wire. */
    public static int wireSize(int payloadBytes) {
        return LENGTH_BYTES + HEADER_BYTES + payloadBytes;
    }

    static Frame decode(ByteBuf in) {
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
        long requestId = in.readLong();
        byte[] payload = new byte[in.readableBytes()];
        in.readBytes(payload);
        return new Frame(op, requestId, payload);
    }

    static void encode(Frame frame, ByteBuf out) {
        if (frame.payload().length > MAX_FRAME_BYTES - HEADER_BYTES) {
            throw new IllegalArgumentException(frame + " exceeds the frame limit of " + MAX_FRAME_BYTES + " bytes");
        }
        out.writeInt(HEADER_BYTES + frame.payload().length);
        out.writeByte(VERSION);
        out.writeByte(frame.op().code());
        out.writeLong(frame.requestId());
        out.writeBytes(frame.payload());
    }

    /** Turns each length-delimited buffer into a {@link Frame}; the buffer is released after. */
    private static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            out.add(FrameFormat.decode(in));
        }
    }

    private static final class Encoder extends MessageToByteEncoder<Frame> {
        @Override
        protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Frame frame, boolean preferDirect) {
            return ctx.alloc().ioBuffer(wireSize(frame.payload().length));
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Frame frame, ByteBuf out) {
            FrameFormat.encode(frame, out);
        }
    }
}

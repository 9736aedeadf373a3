package org.oooengine.core.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

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
 * Version 2: a join fragment carries a chain of probes (version 1: exactly one). Version 3: every
 * table of a join fragment carries an alias, so a table may be joined twice.
 */
public final class FrameFormat {
    public static final byte VERSION = 3;
    public static final int MAX_FRAME_BYTES = 16 << 20;
    static final int LENGTH_BYTES = 4;
    static final int HEADER_BYTES = 1 + 1 + 8;

    private FrameFormat() {
    }

    /** Adds the frame codec to a fresh pipeline. */
    public static void install(ChannelPipeline pipeline) {
        pipeline.addLast("frames", new LengthFieldBasedFrameDecoder(LENGTH_BYTES + MAX_FRAME_BYTES, 0, LENGTH_BYTES, 0,
                LENGTH_BYTES, true));
        pipeline.addLast("frame-decoder", new Decoder());
        pipeline.addLast("frame-encoder", new Encoder());
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

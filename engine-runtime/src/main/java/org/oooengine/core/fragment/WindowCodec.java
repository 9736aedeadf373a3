package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.wire.ValueCodec;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprCodec;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * The wire form of a {@link PipelineStep.Window}: its partition keys, its order keys (expression,
 * direction and where NULLs go), then each call: kind, argument, aggregate, offset, fallback,
 * whether it ignores NULLs, frame (ROWS or RANGE and its two bounds, an offset as a value) and
 * result type.
 */
final class WindowCodec {
    private WindowCodec() {
    }

    static void write(PayloadWriter w, PipelineStep.Window window) {
        ExprCodec.writeList(w, window.partitionKeys());
        w.putVarInt(window.orderKeys().size());
        for (WindowCall.OrderKey k : window.orderKeys()) {
            ExprCodec.write(w, k.expr());
            w.put((k.ascending() ? 1 : 0) | (k.nullsFirst() ? 2 : 0));
        }
        w.putVarInt(window.calls().size());
        for (WindowCall c : window.calls()) {
            w.putVarInt(c.kind().ordinal());
            ExprCodec.writeOptional(w, c.arg());
            w.put(c.aggregate() == null ? 0 : 1);
            if (c.aggregate() != null) {
                ExprCodec.writeAggregate(w, c.aggregate());
            }
            w.putLong(c.offset());
            ExprCodec.writeOptional(w, c.fallback());
            w.put(c.ignoreNulls() ? 1 : 0);
            w.put(c.frame() == null ? 0 : c.frame().rows() ? 1 : 2);
            if (c.frame() != null) {
                writeBound(w, c.frame().start());
                writeBound(w, c.frame().end());
            }
            ExprCodec.writeType(w, c.type());
        }
    }

    static PipelineStep.Window read(PayloadReader r) {
        List<Expr> partition = ExprCodec.readList(r);
        int orderCount = r.getCount(2);
        List<WindowCall.OrderKey> order = new ArrayList<>(orderCount);
        for (int i = 0; i < orderCount; i++) {
            Expr e = ExprCodec.read(r);
            byte flags = r.get();
            if ((flags & ~3) != 0) {
                throw new ProtocolException("a window order key with flags " + flags);
            }
            order.add(new WindowCall.OrderKey(e, (flags & 1) != 0, (flags & 2) != 0));
        }
        int callCount = r.getCount(4);
        List<WindowCall> calls = new ArrayList<>(callCount);
        for (int i = 0; i < callCount; i++) {
            WindowCall.Kind[] kinds = WindowCall.Kind.values();
            WindowCall.Kind kind = kinds[index(r.getVarInt(), kinds.length, "window function")];
            Expr arg = ExprCodec.readOptional(r);
            AggregateCall aggregate = r.get() != 0 ? ExprCodec.readAggregate(r) : null;
            long offset = r.getLong();
            Expr fallback = ExprCodec.readOptional(r);
            boolean ignoreNulls = r.get() != 0;
            byte framed = r.get();
            WindowCall.Frame frame = framed == 0 ? null
                    : valid(() -> new WindowCall.Frame(framed == 1, readBound(r), readBound(r)));
            SqlType type = ExprCodec.readType(r);
            calls.add(valid(() -> new WindowCall(kind, arg, aggregate, offset, fallback, ignoreNulls, frame, type)));
        }
        return valid(() -> new PipelineStep.Window(partition, order, calls));
    }

    private static void writeBound(PayloadWriter w, WindowCall.Bound b) {
        w.putVarInt(b.type().ordinal());
        if (b.offset() != null) {
            ValueCodec.writeRow(w, new Object[] {b.offset()});
        }
    }

    private static WindowCall.Bound readBound(PayloadReader r) {
        WindowCall.BoundType type = WindowCall.BoundType.values()[index(r.getVarInt(), WindowCall.BoundType.values().length,
                "frame bound")];
        if (type != WindowCall.BoundType.PRECEDING && type != WindowCall.BoundType.FOLLOWING) {
            return new WindowCall.Bound(type, null);
        }
        Object[] offset = ValueCodec.readRow(r);
        if (offset.length != 1 || !(offset[0] instanceof Number n)) {
            throw new ProtocolException("a frame bound's offset that is not a number");
        }
        return valid(() -> new WindowCall.Bound(type, n));
    }

    private static int index(int i, int count, String what) {
        if (i < 0 || i >= count) {
            throw new ProtocolException("unknown " + what + " " + i);
        }
        return i;
    }

    /** A part made from the wire: one its own checks refuse is a protocol error. */
    private static <T> T valid(java.util.function.Supplier<T> part) {
        try {
            return part.get();
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("a window that cannot run: " + e.getMessage());
        }
    }
}

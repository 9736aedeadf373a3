package org.oooengine.core.sql.expr;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.wire.ValueCodec;
import org.oooengine.core.sql.SqlType;

/**
 * Bound expressions and aggregate calls on the wire, so that a node evaluates exactly what the
 * coordinator bound. A tag byte per node of the tree, then its fields; constants travel as
 * {@link ValueCodec} values. A frame that does not decode to an expression is a {@link ProtocolException}.
 */
public final class ExprCodec {
    private static final byte COLUMN = 1;
    private static final byte LITERAL = 2;
    private static final byte CALL = 3;
    private static final byte AND = 4;
    private static final byte OR = 5;
    private static final byte NOT = 6;
    private static final byte IS_NULL = 7;
    private static final byte CASE = 8;
    private static final byte IN_LIST = 9;
    private static final byte LIKE = 10;
    /** Deeper trees than any bound query makes: a guard against a frame that recurses forever. */
    private static final int MAX_DEPTH = 512;

    private ExprCodec() {
    }

    public static void write(PayloadWriter w, Expr e) {
        if (e instanceof Expr.Column c) {
            w.put(COLUMN).putVarInt(c.index());
            writeType(w, c.type());
        } else if (e instanceof Expr.Literal l) {
            w.put(LITERAL);
            ValueCodec.writeRow(w, new Object[] {l.value()});
            writeType(w, l.type());
        } else if (e instanceof Expr.Call c) {
            w.put(CALL).putVarInt(c.function().ordinal());
            writeList(w, c.args());
            writeType(w, c.type());
        } else if (e instanceof Expr.And a) {
            w.put(AND);
            writeList(w, a.terms());
        } else if (e instanceof Expr.Or o) {
            w.put(OR);
            writeList(w, o.terms());
        } else if (e instanceof Expr.Not n) {
            w.put(NOT);
            write(w, n.term());
        } else if (e instanceof Expr.IsNull n) {
            w.put(IS_NULL).put(n.negated() ? 1 : 0);
            write(w, n.term());
        } else if (e instanceof Expr.Case c) {
            w.put(CASE);
            writeList(w, c.conditions());
            writeList(w, c.results());
            write(w, c.otherwise());
            writeType(w, c.type());
        } else if (e instanceof Expr.InList in) {
            w.put(IN_LIST).put(in.negated() ? 1 : 0);
            write(w, in.value());
            writeList(w, in.list());
        } else if (e instanceof Expr.Like l) {
            w.put(LIKE).put(l.negated() ? 1 : 0).putString(l.pattern());
            write(w, l.value());
        } else {
            throw new IllegalArgumentException("no wire form for " + e.getClass().getSimpleName());
        }
    }

    public static Expr read(PayloadReader r) {
        return read(r, 0);
    }

    /** An expression that may be absent (a filter): a flag byte, then the expression. */
    public static void writeOptional(PayloadWriter w, Expr e) {
        w.put(e == null ? 0 : 1);
        if (e != null) {
            write(w, e);
        }
    }

    public static Expr readOptional(PayloadReader r) {
        return r.get() == 0 ? null : read(r);
    }

    public static void writeList(PayloadWriter w, List<Expr> list) {
        w.putVarInt(list.size());
        list.forEach(e -> write(w, e));
    }

    public static List<Expr> readList(PayloadReader r) {
        return readList(r, 0);
    }

    public static void writeAggregate(PayloadWriter w, AggregateCall call) {
        w.putVarInt(call.kind().ordinal()).put(call.distinct() ? 1 : 0);
        writeOptional(w, call.arg());
        writeType(w, call.type());
    }

    public static AggregateCall readAggregate(PayloadReader r) {
        AggregateCall.Kind kind = pick(AggregateCall.Kind.values(), r.getVarInt(), "aggregate");
        boolean distinct = r.get() != 0;
        Expr arg = readOptional(r);
        return new AggregateCall(kind, arg, distinct, readType(r));
    }

    /** A type: its kind, precision and scale, then an array's or map's element types the same way. */
    public static void writeType(PayloadWriter w, SqlType t) {
        w.putVarInt(t.kind().ordinal()).putVarInt(t.precision()).putVarInt(t.scale());
        t.elements().forEach(e -> writeType(w, e));
    }

    public static SqlType readType(PayloadReader r) {
        return readType(r, 0);
    }

    private static SqlType readType(PayloadReader r, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ProtocolException("a type nested deeper than " + MAX_DEPTH);
        }
        SqlType.Kind kind = pick(SqlType.Kind.values(), r.getVarInt(), "type");
        int precision = r.getVarInt();
        int scale = r.getVarInt();
        int elements = kind == SqlType.Kind.ARRAY ? 1 : kind == SqlType.Kind.MAP ? 2 : 0;
        List<SqlType> types = new ArrayList<>(elements);
        for (int i = 0; i < elements; i++) {
            types.add(readType(r, depth + 1));
        }
        return new SqlType(kind, precision, scale, types);
    }

    private static Expr read(PayloadReader r, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ProtocolException("an expression nested deeper than " + MAX_DEPTH);
        }
        byte tag = r.get();
        int d = depth + 1;
        return switch (tag) {
            case COLUMN -> new Expr.Column(r.getVarInt(), readType(r));
            case LITERAL -> {
                Object[] value = ValueCodec.readRow(r);
                if (value.length != 1) {
                    throw new ProtocolException("a constant of " + value.length + " values");
                }
                yield new Expr.Literal(value[0], readType(r));
            }
            case CALL -> {
                ScalarFunction f = pick(ScalarFunction.values(), r.getVarInt(), "function");
                List<Expr> args = readList(r, d);
                yield new Expr.Call(f, args, readType(r));
            }
            case AND -> new Expr.And(readList(r, d));
            case OR -> new Expr.Or(readList(r, d));
            case NOT -> new Expr.Not(read(r, d));
            case IS_NULL -> {
                boolean negated = r.get() != 0;
                yield new Expr.IsNull(read(r, d), negated);
            }
            case CASE -> {
                List<Expr> conditions = readList(r, d);
                List<Expr> results = readList(r, d);
                Expr otherwise = read(r, d);
                if (conditions.size() != results.size()) {
                    throw new ProtocolException("a CASE of " + conditions.size() + " conditions and " + results.size() + " results");
                }
                yield new Expr.Case(conditions, results, otherwise, readType(r));
            }
            case IN_LIST -> {
                boolean negated = r.get() != 0;
                Expr value = read(r, d);
                yield new Expr.InList(value, readList(r, d), negated);
            }
            case LIKE -> {
                boolean negated = r.get() != 0;
                String pattern = r.getString();
                yield new Expr.Like(read(r, d), pattern, negated);
            }
            default -> throw new ProtocolException("unknown expression tag " + tag);
        };
    }

    private static List<Expr> readList(PayloadReader r, int depth) {
        int n = r.getCount(1);
        List<Expr> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(read(r, depth));
        }
        return out;
    }

    private static <T> T pick(T[] values, int ordinal, String what) {
        if (ordinal < 0 || ordinal >= values.length) {
            throw new ProtocolException("unknown " + what + " " + ordinal);
        }
        return values[ordinal];
    }
}

package org.oooengine.core.fragment;

import java.util.List;
import java.util.Optional;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/**
 * The part of a table's clustered tree a pipeline can need: its first filter's comparisons of the
 * key's leading column with constants ({@code l_orderkey < 1000}, BETWEEN, =) bound the encoded
 * keys to [{@code from}, {@code toExclusive}); null is an open end. The filter still runs on every
 * row read, so a range only has to be wide enough: a constant the column's type cannot hold
 * exactly bounds nothing.
 */
public record KeyRange(byte[] from, byte[] toExclusive) {
    /** The range {@code spec}'s first step allows, or empty when it bounds the leading key column on neither side. */
    public static Optional<KeyRange> of(Table table, ScanPipeline spec) {
        if (spec.steps().isEmpty() || !(spec.steps().get(0) instanceof PipelineStep.Filter filter)) {
            return Optional.empty();
        }
        int column = table.primaryKeyPositions()[0];
        DataType stored = table.schema().type(column);
        if (!ordered(stored) || column >= spec.width()) {
            return Optional.empty();
        }
        Bounds bounds = new Bounds(SqlType.of(stored));
        for (Expr conjunct : Exprs.conjuncts(filter.condition())) {
            bounds.add(conjunct, column);
        }
        if (bounds.low == null && bounds.high == null) {
            return Optional.empty();
        }
        KeyCodec codec = new KeyCodec(new DataType[] {stored});
        byte[] from = null;
        byte[] to = null;
        if (bounds.low != null) {
            byte[] p = codec.encodePrefix(new Object[] {bounds.low}, 1);
            from = bounds.lowInclusive ? p : KeyCodec.successor(p);
        }
        if (bounds.high != null) {
            byte[] p = codec.encodePrefix(new Object[] {bounds.high}, 1);
            to = bounds.highInclusive ? KeyCodec.successor(p) : p;
        }
        return Optional.of(new KeyRange(from, to));
    }

    /** Key types whose encoded order is the order SQL compares their values in. */
    private static boolean ordered(DataType t) {
        return switch (t.kind()) {
            case INT, BIGINT, DATE -> true;
            case DECIMAL -> !t.isWideDecimal(); // the bounds below are longs
            default -> false;
        };
    }

    /** The tightest bounds seen so far, as stored values (longs or ints). */
    private static final class Bounds {
        private final SqlType type;
        Number low;
        boolean lowInclusive;
        Number high;
        boolean highInclusive;

        Bounds(SqlType type) {
            this.type = type;
        }

        void add(Expr conjunct, int column) {
            if (!(conjunct instanceof Expr.Call call) || call.args().size() != 2) {
                return;
            }
            ScalarFunction f = call.function();
            List<Expr> args = call.args();
            Expr constant;
            if (isColumn(args.get(0), column)) {
                constant = args.get(1);
            } else if (isColumn(args.get(1), column)) {
                constant = args.get(0);
                f = flipped(f);
            } else {
                return;
            }
            if (f == null || !(constant instanceof Expr.Literal literal) || literal.value() == null) {
                return;
            }
            Number value = storedExactly(literal.value());
            if (value == null) {
                return;
            }
            switch (f) {
                case EQ -> {
                    raiseLow(value, true);
                    lowerHigh(value, true);
                }
                case GT -> raiseLow(value, false);
                case GE -> raiseLow(value, true);
                case LT -> lowerHigh(value, false);
                case LE -> lowerHigh(value, true);
                default -> {
                }
            }
        }

        private Number storedExactly(Object value) {
            Object cast = Values.cast(value, type);
            if (cast == null || Values.compare(cast, value) != 0) {
                return null;
            }
            return (Number) type.toStored(cast);
        }

        private void raiseLow(Number v, boolean inclusive) {
            int c = low == null ? 1 : Long.compare(v.longValue(), low.longValue());
            if (c > 0 || (c == 0 && !inclusive)) {
                low = v;
                lowInclusive = inclusive;
            }
        }

        private void lowerHigh(Number v, boolean inclusive) {
            int c = high == null ? -1 : Long.compare(v.longValue(), high.longValue());
            if (c < 0 || (c == 0 && !inclusive)) {
                high = v;
                highInclusive = inclusive;
            }
        }

        private static boolean isColumn(Expr e, int column) {
            return e instanceof Expr.Column c && c.index() == column;
        }

        /** {@code constant f column} as {@code column f' constant}. */
        private static ScalarFunction flipped(ScalarFunction f) {
            return switch (f) {
                case EQ -> ScalarFunction.EQ;
                case LT -> ScalarFunction.GT;
                case LE -> ScalarFunction.GE;
                case GT -> ScalarFunction.LT;
                case GE -> ScalarFunction.LE;
                default -> null;
            };
        }
    }
}

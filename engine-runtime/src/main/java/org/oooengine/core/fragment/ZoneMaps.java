package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.LongVector;

/**
 * The groups of a columnar copy a scan can skip: those whose min and max show that a comparison of
 * a column with a constant, ANDed into the pipeline's leading filters, holds for none of their rows.
 * A range of the clustered key so reads only the groups of that range.
 */
final class ZoneMaps {
    /** column op constant, the constant stored as the column stores its values. */
    private record Bound(int column, ScalarFunction op, long value) {
    }

    private final List<Bound> bounds;

    private ZoneMaps(List<Bound> bounds) {
        this.bounds = bounds;
    }

    /** The bounds the filters before the first other step put on the scanned columns. */
    static ZoneMaps of(List<PipelineStep> steps) {
        List<Bound> bounds = new ArrayList<>();
        for (PipelineStep step : steps) {
            if (!(step instanceof PipelineStep.Filter f)) {
                break;
            }
            for (Expr term : Exprs.conjuncts(f.condition())) {
                Bound b = bound(term);
                if (b != null) {
                    bounds.add(b);
                }
            }
        }
        return new ZoneMaps(bounds);
    }

    private static Bound bound(Expr term) {
        if (!(term instanceof Expr.Call call) || call.args().size() != 2) {
            return null;
        }
        ScalarFunction op = call.function();
        Expr left = call.args().get(0);
        Expr right = call.args().get(1);
        if (right instanceof Expr.Column && !(left instanceof Expr.Column)) {
            Expr t = left;
            left = right;
            right = t;
            op = switch (op) {
                case LT -> ScalarFunction.GT;
                case LE -> ScalarFunction.GE;
                case GT -> ScalarFunction.LT;
                case GE -> ScalarFunction.LE;
                default -> op;
            };
        }
        if (!(left instanceof Expr.Column column) || !Exprs.columns(right).isEmpty()) {
            return null;
        }
        switch (op) {
            case EQ, LT, LE, GT, GE -> {
            }
            default -> {
                return null;
            }
        }
        Long stored;
        try {
            stored = LongVector.exactly(right.eval(new Object[0]), column.type());
        } catch (RuntimeException notConstant) {
            return null;
        }
        return stored == null ? null : new Bound(column.index(), op, stored); // not exactly a value of the column: no bound
    }

    /** Whether no row of {@code group} can pass the filters. */
    boolean excludes(ColumnarFile file, int group) {
        for (Bound b : bounds) {
            if (!file.hasMinMax(group, b.column())) {
                continue;
            }
            long min = file.min(group, b.column());
            long max = file.max(group, b.column());
            boolean none = switch (b.op()) {
                case EQ -> b.value() < min || b.value() > max;
                case LT -> min >= b.value();
                case LE -> min > b.value();
                case GT -> max <= b.value();
                case GE -> max < b.value();
                default -> false;
            };
            if (none) {
                return true;
            }
        }
        return false;
    }
}

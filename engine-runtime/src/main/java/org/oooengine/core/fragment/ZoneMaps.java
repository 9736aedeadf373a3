package org.oooengine.core.fragment;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.wire.ColumnarRows;

/**
 * The groups of a columnar copy a scan can skip: those whose min and max show that a comparison of
 * a column with a constant, ANDed into the pipeline's leading filters, holds for none of their rows,
 * or whose bloom filter of a column lacks the constant it must equal.
 * A range of the clustered key so reads only the groups of that range. A join that drops a probe
 * row without a partner bounds its probe key in the same way, by the least and greatest of its
 * build rows' keys: TPC-DS Q22's inventory, clustered by day, meets a year of the days it holds
 * five of, and its other days' groups are not read.
 */
final class ZoneMaps {
    /** column op constant, the constant stored as the column stores its values. */
    private record Bound(int column, ScalarFunction op, long value) {
    }

    /** A string column equal to a constant: what only a group's bloom filter can judge. */
    private record Equal(int column, String value) {
    }

    private final List<Bound> bounds;
    private final List<Equal> equals;

    private ZoneMaps(List<Bound> bounds, List<Equal> equals) {
        this.bounds = bounds;
        this.equals = equals;
    }

    /** The bounds the filters before the first other step put on the scanned columns. */
    static ZoneMaps of(List<PipelineStep> steps) {
        return of(steps, null, join -> null);
    }

    /**
     * The bounds the filters and joins before the first other step put on the scanned columns, of
     * {@code types}: a join's from its build rows, where {@code buildRows} has them (null: not).
     */
    static ZoneMaps of(List<PipelineStep> steps, SqlType[] types,
                       Function<PipelineStep.HashJoin, ColumnarRows.Chunk> buildRows) {
        List<Bound> bounds = new ArrayList<>();
        List<Equal> equals = new ArrayList<>();
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.Filter f) {
                for (Expr term : Exprs.conjuncts(f.condition())) {
                    Bound b = bound(term);
                    if (b != null) {
                        bounds.add(b);
                    }
                    Equal e = equal(term);
                    if (e != null) {
                        equals.add(e);
                    }
                }
            } else if (step instanceof PipelineStep.HashJoin j && !j.kind().rightOnly()) {
                ColumnarRows.Chunk rows = dropsUnmet(j.kind()) ? buildRows.apply(j) : null;
                for (int k = 0; rows != null && k < j.probeKeys().size(); k++) {
                    bounds.addAll(keyBounds(j.probeKeys().get(k), types, rows, j.buildKeys().get(k)));
                }
            } else {
                break; // the scanned columns are no longer where they were
            }
        }
        return new ZoneMaps(bounds, equals);
    }

    /** Join kinds whose output has nothing of a probe row that meets no build row. */
    private static boolean dropsUnmet(JoinKind kind) {
        return kind == JoinKind.INNER || kind == JoinKind.SEMI || kind == JoinKind.RIGHT;
    }

    /**
     * Probe column {@code column} (of {@code types}) between the least and the greatest of the
     * keys at {@code buildKey} of {@code rows}; beyond every value when they hold none but nulls (the
     * join passes nothing); none for a column not of an integer or date type, or a key of another.
     */
    private static List<Bound> keyBounds(int column, SqlType[] types, ColumnarRows.Chunk rows, int buildKey) {
        SqlType type = types == null || column >= types.length ? null : types[column];
        if (type == null || (type.kind() != SqlType.Kind.INT && type.kind() != SqlType.Kind.BIGINT
                && type.kind() != SqlType.Kind.DATE)) {
            return List.of();
        }
        long least = Long.MAX_VALUE;
        long greatest = Long.MIN_VALUE;
        ColumnarRows.Column keys = rows.columns() == null ? null : rows.columns()[buildKey];
        boolean dates = type.kind() == SqlType.Kind.DATE;
        if (keys != null && keys.held() == ColumnarRows.Held.LONGS && (dates ? keys.longKind() == ColumnarRows.LongKind.DATE
                : keys.longKind() == ColumnarRows.LongKind.INT || keys.longKind() == ColumnarRows.LongKind.LONG)) {
            for (int i = 0; i < rows.size(); i++) { // as the wire held them: no value boxed
                if (!keys.isNull(i)) {
                    least = Math.min(least, keys.longs()[i]);
                    greatest = Math.max(greatest, keys.longs()[i]);
                }
            }
            return bounds(column, least, greatest);
        }
        for (int i = 0; i < rows.size(); i++) {
            Object key = keys != null ? keys.value(i) : rows.rows().get(i)[buildKey];
            if (key == null) {
                continue; // meets nothing
            }
            Long stored = type.kind() == SqlType.Kind.DATE ? (key instanceof LocalDate d ? Long.valueOf(d.toEpochDay()) : null)
                    : key instanceof Integer || key instanceof Long ? Long.valueOf(((Number) key).longValue())
                    : LongVector.exactly(key, type);
            if (stored == null) {
                return List.of(); // a key of another kind: the join compares it as it does, unbounded here
            }
            least = Math.min(least, stored);
            greatest = Math.max(greatest, stored);
        }
        return bounds(column, least, greatest);
    }

    /** Column {@code column} between {@code least} and {@code greatest}; no value where least is greater. */
    private static List<Bound> bounds(int column, long least, long greatest) {
        if (least > greatest) {
            return List.of(new Bound(column, ScalarFunction.LT, Long.MIN_VALUE)); // holds for no value
        }
        return List.of(new Bound(column, ScalarFunction.GE, least), new Bound(column, ScalarFunction.LE, greatest));
    }

    /**
     * A comparison of a column with a constant, written column first (the operator mirrored where
     * the column was on the right), the constant's value; null for any other term, or a constant
     * that cannot be evaluated alone.
     */
    private record Comparison(Expr.Column column, ScalarFunction op, Object constant) {
        static Comparison of(Expr term) {
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
            try {
                return new Comparison(column, op, right.eval(new Object[0]));
            } catch (RuntimeException notConstant) {
                return null;
            }
        }
    }

    /** A VARCHAR or STRING column equal to a string constant (CHAR compares padded: not taken). */
    private static Equal equal(Expr term) {
        Comparison c = Comparison.of(term);
        if (c == null || c.op() != ScalarFunction.EQ || !(c.constant() instanceof String s)) {
            return null;
        }
        SqlType.Kind kind = c.column().type().kind();
        return kind == SqlType.Kind.VARCHAR || kind == SqlType.Kind.STRING ? new Equal(c.column().index(), s) : null;
    }

    private static Bound bound(Expr term) {
        Comparison c = Comparison.of(term);
        if (c == null) {
            return null;
        }
        Long stored;
        try {
            stored = LongVector.exactly(c.constant(), c.column().type());
        } catch (RuntimeException notAValue) {
            return null;
        }
        // not exactly a value of the column: no bound
        return stored == null ? null : new Bound(c.column().index(), c.op(), stored);
    }

    /** As a filter of a file's groups of rows: the ones {@link #excludes} skipped, and the equalities a format's own index may judge. */
    GroupFilter asFilter() {
        if (bounds.isEmpty() && equals.isEmpty()) {
            return GroupFilter.NONE; // nothing to judge a group by: none is counted as judged
        }
        List<GroupFilter.Equality> equalities = new ArrayList<>();
        equals.forEach(e -> equalities.add(new GroupFilter.Equality(e.column(), e.value())));
        bounds.stream().filter(b -> b.op() == ScalarFunction.EQ)
                .forEach(b -> equalities.add(new GroupFilter.Equality(b.column(), b.value())));
        return new GroupFilter() {
            @Override
            public boolean test(ColumnRanges ranges) {
                return excludes(ranges);
            }

            @Override
            public List<Equality> equalities() {
                return equalities;
            }
        };
    }

    /** Whether no row of {@code group} can pass the filters. */
    boolean excludes(ColumnarFile file, int group) {
        return excludes(new ColumnRanges() {
            @Override
            public boolean has(int column) {
                return file.hasMinMax(group, column);
            }

            @Override
            public long min(int column) {
                return file.min(group, column);
            }

            @Override
            public long max(int column) {
                return file.max(group, column);
            }
        });
    }

    /** Whether no row of a group whose columns span {@code ranges} can pass the filters. */
    boolean excludes(ColumnRanges ranges) {
        for (Equal e : equals) {
            if (!ranges.mayHold(e.column(), e.value())) {
                return true; // its bloom filter lacks the string
            }
        }
        for (Bound b : bounds) {
            if (b.op() == ScalarFunction.EQ && !ranges.mayHold(b.column(), b.value())) {
                return true; // its bloom filter lacks the value
            }
            if (!ranges.has(b.column())) {
                continue;
            }
            long min = ranges.min(b.column());
            long max = ranges.max(b.column());
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

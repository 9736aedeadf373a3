package org.oooengine.optimizer.rel;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * Finds, in a group of inner-joined tables, the shape the engine's index join runs: one table
 * with a range (both bounds, or equality) on an indexed column drives; every other table is
 * reached by an equality from a table already joined to a column it can be probed by (its
 * primary key's first column or an indexed column). The range may be wider than the SQL
 * predicate (a bound rounded to the column's type); every condition is applied again above the
 * join, so the index join only has to return a superset.
 */
public final class IndexJoinMatcher {
    private IndexJoinMatcher() {
    }

    /** A chain the index join runs, and the equalities its probes already enforce. */
    public record Match(JoinSpec spec, Set<Expr> probeConditions) {
    }

    /** The chain, or null when the group does not have this shape. */
    public static Match match(List<RelNode> leaves, int[] offset, List<Expr> joinConjuncts) {
        List<RelNode.Scan> scans = new ArrayList<>();
        for (RelNode leaf : leaves) {
            if (!(leaf instanceof RelNode.Scan s)) {
                return null;
            }
            scans.add(s);
        }
        if (scans.size() < 2 || scans.stream().map(RelNode.Scan::alias).distinct().count() < scans.size()) {
            return null;
        }
        for (int outer = 0; outer < scans.size(); outer++) {
            ColumnRange range = range(scans.get(outer));
            if (range != null) {
                Match m = chain(scans, offset, joinConjuncts, outer, range);
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    private static Match chain(List<RelNode.Scan> scans, int[] offset, List<Expr> conjuncts, int outer, ColumnRange range) {
        BitSet joined = new BitSet();
        joined.set(outer);
        List<JoinSpec.Probe> probes = new ArrayList<>();
        Set<Expr> used = new HashSet<>();
        boolean progress = true;
        while (joined.cardinality() < scans.size() && progress) {
            progress = false;
            for (Expr c : conjuncts) {
                int[] pair = columnPair(c);
                if (pair == null || used.contains(c)) {
                    continue;
                }
                for (int side = 0; side < 2 && !progress; side++) {
                    int from = pair[side];
                    int to = pair[1 - side];
                    int fromLeaf = JoinGraph.leafOf(offset, from);
                    int toLeaf = JoinGraph.leafOf(offset, to);
                    RelNode.Scan target = scans.get(toLeaf);
                    String toColumn = target.fields().get(to - offset[toLeaf]).name();
                    if (joined.get(fromLeaf) && !joined.get(toLeaf) && target.table().probeable(toColumn)) {
                        RelNode.Scan source = scans.get(fromLeaf);
                        String fromColumn = source.fields().get(from - offset[fromLeaf]).name();
                        probes.add(new JoinSpec.Probe(source.alias() + "." + fromColumn, target.table().storage(),
                                toColumn, target.alias()));
                        joined.set(toLeaf);
                        used.add(c);
                        progress = true;
                    }
                }
            }
        }
        if (joined.cardinality() < scans.size()) {
            return null;
        }
        List<String> output = new ArrayList<>();
        for (RelNode.Scan s : scans) {
            for (Field f : s.fields()) {
                output.add(s.alias() + "." + f.name());
            }
        }
        RelNode.Scan driver = scans.get(outer);
        return new Match(new JoinSpec(driver.table().storage(), driver.alias(), range, probes, output), used);
    }

    private static int[] columnPair(Expr c) {
        if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ
                && call.args().get(0) instanceof Expr.Column a && call.args().get(1) instanceof Expr.Column b) {
            return new int[] {a.index(), b.index()};
        }
        return null;
    }

    /** The range a scan's filter puts on one of its table's indexed columns, in stored values; null if none. */
    static ColumnRange range(RelNode.Scan scan) {
        if (scan.filter() == null) {
            return null;
        }
        TableInfo table = scan.table();
        List<Expr> conjuncts = Exprs.conjuncts(scan.filter());
        for (String column : table.indexedColumns()) {
            int index = table.indexOf(column);
            SqlType type = table.columns().get(index).type();
            Object low = null;
            Object high = null;
            for (Expr c : conjuncts) {
                if (!(c instanceof Expr.Call call) || call.args().size() != 2) {
                    continue;
                }
                ScalarFunction f = call.function();
                Expr a = call.args().get(0);
                Expr b = call.args().get(1);
                if (b instanceof Expr.Column && a instanceof Expr.Literal) {
                    f = flip(f);
                    Expr t = a;
                    a = b;
                    b = t;
                }
                if (!(a instanceof Expr.Column col) || col.index() != index || !(b instanceof Expr.Literal lit)
                        || lit.value() == null) {
                    continue;
                }
                if (f == ScalarFunction.GE || f == ScalarFunction.GT || f == ScalarFunction.EQ) {
                    low = stored(type, lit.value(), true);
                }
                if (f == ScalarFunction.LE || f == ScalarFunction.LT || f == ScalarFunction.EQ) {
                    high = stored(type, lit.value(), false);
                }
            }
            if (low != null && high != null) {
                return new ColumnRange(column, low, high);
            }
        }
        return null;
    }

    private static ScalarFunction flip(ScalarFunction f) {
        return switch (f) {
            case LT -> ScalarFunction.GT;
            case LE -> ScalarFunction.GE;
            case GT -> ScalarFunction.LT;
            case GE -> ScalarFunction.LE;
            default -> f;
        };
    }

    /**
     * A bound as the column stores it (scaled long, epoch day, int, long): a lower bound rounds
     * up and an upper bound down to the column's precision, so the range still covers every match.
     */
    static Object stored(SqlType type, Object value, boolean lower) {
        RoundingMode mode = lower ? RoundingMode.CEILING : RoundingMode.FLOOR;
        try {
            return switch (type.kind()) {
                case TINYINT, SMALLINT, INT -> decimal(value).setScale(0, mode).intValueExact();
                case BIGINT -> decimal(value).setScale(0, mode).longValueExact();
                case FLOAT, DOUBLE -> ((Number) value).doubleValue();
                case DECIMAL -> wideOrLong(decimal(value).setScale(type.scale(), mode).unscaledValue(), type);
                case DATE -> (int) (value instanceof LocalDate d ? d : LocalDate.parse(value.toString())).toEpochDay();
                case STRING, VARCHAR, CHAR -> value instanceof String s ? s : null;
                default -> null;
            };
        } catch (RuntimeException notABound) {
            return null;
        }
    }

    /** A wide decimal's unscaled value as a BigInteger (within 128 bits, else no bound), a narrow one's as a long. */
    private static Object wideOrLong(java.math.BigInteger unscaled, SqlType type) {
        if (type.precision() <= org.oooengine.core.types.DataType.MAX_LONG_DECIMAL_PRECISION) {
            return unscaled.longValueExact();
        }
        return unscaled.bitLength() <= 127 ? unscaled : null;
    }

    private static BigDecimal decimal(Object v) {
        return v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
    }
}

package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * GROUPING SETS, ROLLUP and CUBE copy every input row once per grouping set before grouping. When
 * the rows fall into far fewer groups of all the sets' keys together (TPC-DS Q22: 2.3 million
 * inventory rows, 18 thousand items), they are grouped by those keys first and the groups are
 * copied instead: {@code sum}, {@code count}, {@code min} and {@code max} of a set's group are
 * the sums, the sums of the counts, the least and the greatest of its finer groups' values, and
 * {@code avg} (of numbers other than decimals) their sum over their count. Other aggregates, or
 * rows estimated to fall into groups less than four to one, are copied as they are.
 */
final class GroupingSetsPreAggregation {
    /** Rows in a group of all the keys, on average, for grouping first to pay. */
    static final int MIN_ROWS_PER_GROUP = 4;

    private GroupingSetsPreAggregation() {
    }

    static RelNode apply(RelNode plan, CardinalityModel model) {
        RelNode node = RelNode.mapInputs(plan, n -> apply(n, model));
        if (node instanceof RelNode.Aggregate a && a.input() instanceof RelNode.Expand e) {
            RelNode grouped = groupedFirst(a, e, model);
            return grouped != null ? grouped : node;
        }
        return node;
    }

    /** {@code a} over {@code e}'s copies, grouped by every set's keys before copying; null when that does not hold or pay. */
    private static RelNode groupedFirst(RelNode.Aggregate a, RelNode.Expand e, CardinalityModel model) {
        List<List<Expr>> copies = e.projections();
        List<Expr> innerKeys = new ArrayList<>();
        List<Field> innerFields = new ArrayList<>();
        for (Expr key : a.keys()) {
            if (!(key instanceof Expr.Column c)) {
                return null;
            }
            for (List<Expr> copy : copies) {
                Expr made = copy.get(c.index());
                if (!(made instanceof Expr.Literal) && !innerKeys.contains(made)) {
                    innerKeys.add(made);
                    innerFields.add(new Field(null, e.fields().get(c.index()).name(), made.type()));
                }
            }
        }
        List<AggregateCall> inner = new ArrayList<>();
        List<AggregateCall> outer = new ArrayList<>();
        int keys = a.keys().size();
        for (AggregateCall call : a.aggregates()) {
            Expr arg = call.arg() == null ? null : passed(call.arg(), copies);
            if (call.distinct() || call.arg() != null && (arg == null || !splits(call))) {
                return null;
            }
            int at = keys + inner.size();
            switch (call.kind()) {
                case COUNT_STAR, COUNT -> {
                    inner.add(call.arg() == null ? call : new AggregateCall(call.kind(), arg, false, call.type()));
                    outer.add(new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(at, SqlType.BIGINT), false, SqlType.BIGINT));
                }
                case SUM, MIN, MAX -> {
                    inner.add(new AggregateCall(call.kind(), arg, false, call.type()));
                    outer.add(new AggregateCall(call.kind(), new Expr.Column(at, call.type()), false, call.type()));
                }
                case AVG -> {
                    SqlType sum = AggregateCall.resultType(AggregateCall.Kind.SUM, arg.type());
                    inner.add(new AggregateCall(AggregateCall.Kind.SUM, arg, false, sum));
                    inner.add(new AggregateCall(AggregateCall.Kind.COUNT, arg, false, SqlType.BIGINT));
                    outer.add(new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(at, sum), false, sum));
                    outer.add(new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(at + 1, SqlType.BIGINT), false,
                            SqlType.BIGINT));
                }
                default -> {
                    return null;
                }
            }
        }
        for (AggregateCall call : inner) {
            innerFields.add(new Field(null, call.toString(), call.type()));
        }
        RelNode.Aggregate groups = new RelNode.Aggregate(e.input(), innerKeys, inner, innerFields);
        long rows = model.rows(e.input());
        long grouped = model.rows(groups);
        if (innerKeys.isEmpty() || rows < 0 || grouped < 0 || grouped * MIN_ROWS_PER_GROUP > rows) {
            return null;
        }
        return regrouped(a, copies, groups, outer);
    }

    /** The copies of {@code groups}' rows, each set's keys as {@code a}'s copies had them, grouped again by {@code outer}. */
    private static RelNode regrouped(RelNode.Aggregate a, List<List<Expr>> copies, RelNode.Aggregate groups,
                                     List<AggregateCall> outer) {
        int keys = a.keys().size();
        int innerKeys = groups.keys().size();
        List<List<Expr>> regrouped = new ArrayList<>();
        for (List<Expr> copy : copies) {
            List<Expr> row = new ArrayList<>();
            for (Expr key : a.keys()) {
                Expr made = copy.get(((Expr.Column) key).index());
                row.add(made instanceof Expr.Literal ? made : new Expr.Column(groups.keys().indexOf(made), made.type()));
            }
            for (int i = 0; i < groups.aggregates().size(); i++) {
                row.add(new Expr.Column(innerKeys + i, groups.aggregates().get(i).type()));
            }
            regrouped.add(row);
        }
        List<Field> expandedFields = new ArrayList<>(a.fields().subList(0, keys));
        expandedFields.addAll(groups.fields().subList(innerKeys, groups.fields().size()));
        RelNode.Expand expanded = new RelNode.Expand(groups, regrouped, expandedFields);
        List<Expr> outerKeys = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            outerKeys.add(new Expr.Column(k, a.fields().get(k).type()));
        }
        List<Field> outerFields = new ArrayList<>(a.fields().subList(0, keys));
        for (AggregateCall call : outer) {
            outerFields.add(new Field(null, call.toString(), call.type()));
        }
        RelNode.Aggregate again = new RelNode.Aggregate(expanded, outerKeys, outer, outerFields);
        List<Expr> results = new ArrayList<>(outerKeys);
        int at = keys;
        for (AggregateCall call : a.aggregates()) {
            if (call.kind() == AggregateCall.Kind.AVG) {
                Expr sum = new Expr.Column(at, outer.get(at - keys).type());
                Expr count = new Expr.Column(at + 1, SqlType.BIGINT);
                results.add(new Expr.Call(ScalarFunction.DIVIDE, List.of(sum, count), call.type()));
                at += 2;
            } else {
                results.add(new Expr.Column(at, call.type()));
                at++;
            }
        }
        return new RelNode.Project(again, results, a.fields());
    }

    /** The input expression every copy passes as column {@code arg} reads, or null when the copies differ. */
    private static Expr passed(Expr arg, List<List<Expr>> copies) {
        if (!(arg instanceof Expr.Column c)) {
            return null;
        }
        Expr first = copies.get(0).get(c.index());
        return copies.stream().allMatch(copy -> copy.get(c.index()).equals(first)) ? first : null;
    }

    /** Whether the call's result over groups of groups is the same as over the rows: exact or double arithmetic only. */
    private static boolean splits(AggregateCall call) {
        SqlType.Kind arg = call.arg().type().kind();
        boolean number = call.arg().type().isIntegral() || arg == SqlType.Kind.DOUBLE || arg == SqlType.Kind.FLOAT;
        return switch (call.kind()) {
            case COUNT, MIN, MAX -> true;
            case SUM -> number || arg == SqlType.Kind.DECIMAL;
            case AVG -> number && call.type().kind() == SqlType.Kind.DOUBLE;
            default -> false;
        };
    }
}

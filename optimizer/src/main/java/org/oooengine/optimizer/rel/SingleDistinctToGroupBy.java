package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprText;

/**
 * A GROUP BY whose aggregates are all DISTINCT over one and the same argument (TPC-H Q16's
 * {@code count(DISTINCT ps_suppkey)}) becomes two: the distinct values per group first (a GROUP BY
 * of the keys and the argument, with no aggregates), then the aggregates over those rows, no longer
 * distinct. Each of the two splits into partial states and merges on the nodes, and spills, where
 * a set of distinct values per group could do neither. Nulls stay out as before: the first step
 * keeps a null argument as a group of its own, which the aggregates of the second skip.
 */
public final class SingleDistinctToGroupBy {
    private SingleDistinctToGroupBy() {
    }

    public static RelNode apply(RelNode plan) {
        RelNode node = RelNode.mapInputs(plan, SingleDistinctToGroupBy::apply);
        if (!(node instanceof RelNode.Aggregate a) || !singleDistinct(a.aggregates())) {
            return node;
        }
        Expr arg = a.aggregates().get(0).arg();
        int keys = a.keys().size();
        List<Expr> groupBy = new ArrayList<>(a.keys());
        groupBy.add(arg);
        List<Field> distinctRows = new ArrayList<>(a.fields().subList(0, keys));
        String name = ExprText.of(arg, i -> a.input().fields().get(i).name());
        distinctRows.add(new Field(null, "distinct " + name, arg.type()));
        RelNode.Aggregate distinct = new RelNode.Aggregate(a.input(), groupBy, List.of(), distinctRows);
        List<Expr> sameKeys = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            sameKeys.add(new Expr.Column(k, distinctRows.get(k).type()));
        }
        Expr value = new Expr.Column(keys, arg.type());
        List<AggregateCall> calls = a.aggregates().stream()
                .map(c -> new AggregateCall(c.kind(), value, false, c.type())).toList();
        return new RelNode.Aggregate(distinct, sameKeys, calls, a.fields());
    }

    /** Every aggregate DISTINCT, over one argument (one per group of values, so one spillable GROUP BY). */
    private static boolean singleDistinct(List<AggregateCall> calls) {
        return !calls.isEmpty() && calls.stream().allMatch(c -> c.distinct() && c.arg() != null
                && c.kind() != AggregateCall.Kind.COUNT_STAR && c.arg().equals(calls.get(0).arg()));
    }
}

package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * A GROUP BY over an inner join whose aggregates read one side only (the facts), grouped first on
 * that side by its join key and the grouping keys it holds, then joined: TPC-DS Q04 and Q11
 * total each customer's sales of a year, and grouping the year's sales by customer key before
 * meeting the customer table joins and moves a row per customer and year instead of one per
 * sale. Sums, minima and maxima of the groups' values are the same over their partial groups, and
 * counts are the sums of partial counts, whatever the join repeats; the GROUP BY above merges the
 * partial groups, so those may be {@link RelNode.PartialGroups}: each node groups the facts it
 * holds and sends its groups to the nodes that hold their partners (the customers of their key),
 * and no table of the other side's size is gathered. Where the other side is sent to every node
 * whole (Q74's customers), each node groups its facts before it joins them: a row per customer
 * and year meets the names, not one per sale; filtered (Q22's year of dates), the nodes join it
 * first, dropping the facts it filters out, and the GROUP BY splits as it is. A LEFT join groups
 * either side alike: TPC-H Q13 counts each customer's orders, and grouping the orders by customer
 * first moves a row per customer, not one per order, to the customers' nodes (a customer that
 * meets no group counts 0). Done only where the statistics say it pays ({@link #pays}).
 */
final class EagerAggregation {
    /** The share of its rows the facts' groups must be estimated to come to, at most. */
    private static final double MAX_GROUP_SHARE = 0.5;

    private final CardinalityModel model;
    private final Broadcastable broadcastable;
    private final Function<JoinGraph, JoinGraph.Shape> shaper;

    /** Whether the rows of a plan, in the columns read of them, are few enough to send to every node. */
    interface Broadcastable {
        boolean test(RelNode node, BitSet read);
    }

    private EagerAggregation(CardinalityModel model, Broadcastable broadcastable,
                             Function<JoinGraph, JoinGraph.Shape> shaper) {
        this.model = model;
        this.broadcastable = broadcastable;
        this.shaper = shaper;
    }

    /**
     * {@code plan} with each GROUP BY over a join grouped early where it pays; {@code shaper}
     * shapes the joins of a group of inner joins parted into dimensions and facts ({@link FactsJoinedLast}).
     */
    static RelNode apply(RelNode plan, CardinalityModel model, Broadcastable broadcastable,
                         Function<JoinGraph, JoinGraph.Shape> shaper) {
        return new EagerAggregation(model, broadcastable, shaper).rewrite(plan);
    }

    private RelNode rewrite(RelNode node) {
        RelNode below = RelNode.mapInputs(node, this::rewrite);
        if (below instanceof RelNode.Aggregate a) {
            RelNode eager = eager(a);
            return eager != null ? eager : below;
        }
        return below;
    }

    /** {@code a} with its facts grouped before the join, or null where that does not apply or pay. */
    private RelNode eager(RelNode.Aggregate a) {
        if (a.keys().isEmpty() || a.aggregates().stream().anyMatch(c -> c.distinct() || !mergedBySum(c.kind()))) {
            return null; // without keys an empty join must still count 0, which a sum of counts does not
        }
        List<Expr> keys = a.keys();
        List<AggregateCall> calls = a.aggregates();
        RelNode input = a.input();
        if (input instanceof RelNode.Project p) {
            keys = keys.stream().map(k -> Exprs.substitute(k, p.exprs())).toList();
            calls = calls.stream().map(c -> c.arg() == null ? c
                    : new AggregateCall(c.kind(), Exprs.substitute(c.arg(), p.exprs()), false, c.type())).toList();
            input = p.input();
        }
        if (!(input instanceof RelNode.Join j)) {
            return null;
        }
        RelNode grouped = eager(j, keys, calls, a.fields());
        FactsJoinedLast.Split split = grouped != null || !JoinGraph.isInnerJoin(j) ? null
                : FactsJoinedLast.of(j, keys, calls, shaper, model::rows);
        return split == null ? grouped : eager(split.join(), split.keys(), split.calls(), a.fields());
    }

    /** The GROUP BY of {@code keys} and {@code calls} over {@code j} with one side grouped first, or null. */
    private RelNode eager(RelNode.Join j, List<Expr> keys, List<AggregateCall> calls, List<Field> fields) {
        if (!(j.kind() == JoinKind.INNER || j.kind() == JoinKind.LEFT) || j.residual() != null || j.leftKeys().length == 0) {
            return null;
        }
        int lw = j.left().fields().size();
        BitSet args = new BitSet();
        calls.stream().filter(c -> c.arg() != null).forEach(c -> args.or(Exprs.columns(c.arg())));
        boolean factsLeft = args.isEmpty() || args.nextSetBit(lw) < 0;
        boolean factsRight = !args.isEmpty() && args.nextSetBit(0) >= lw;
        if (!factsLeft && !factsRight) {
            return null;
        }
        if (j.kind() == JoinKind.LEFT && factsRight && calls.stream().anyMatch(c -> c.kind() == AggregateCall.Kind.COUNT_STAR)) {
            return null; // count(*) counts a padded row, which no group of the facts stands for
        }
        RelNode facts = factsLeft ? j.left() : j.right();
        RelNode other = factsLeft ? j.right() : j.left();
        int factsFrom = factsLeft ? 0 : lw;
        int factsWidth = facts.fields().size();
        // the facts' columns the join and the keys read: the partial groups' keys
        List<Integer> grouped = new ArrayList<>();
        for (int k : factsLeft ? j.leftKeys() : j.rightKeys()) {
            addOnce(grouped, k);
        }
        BitSet factColumns = new BitSet();
        factColumns.set(factsFrom, factsFrom + factsWidth);
        for (Expr k : keys) {
            BitSet read = Exprs.columns(k);
            BitSet outside = (BitSet) read.clone();
            outside.andNot(factColumns);
            if (read.intersects(factColumns) && !outside.isEmpty()) {
                return null; // a key computed from both sides
            }
            if (read.intersects(factColumns)) {
                read.stream().forEach(c -> addOnce(grouped, c - factsFrom));
            }
        }
        BitSet otherRead = new BitSet();
        int otherFrom = factsLeft ? lw : 0;
        for (int k : factsLeft ? j.rightKeys() : j.leftKeys()) {
            otherRead.set(k);
        }
        keys.forEach(k -> Exprs.columns(k).stream().filter(c -> !factColumns.get(c)).forEach(c -> otherRead.set(c - otherFrom)));
        if (broadcastable.test(other, otherRead) && filters(other)) {
            return null; // the nodes join it where the facts are, dropping the facts it filters out, and group after
        }
        int[] otherKeys = factsLeft ? j.rightKeys() : j.leftKeys();
        boolean byOthersKey = keys.stream().anyMatch(k -> k instanceof Expr.Column c && !factColumns.get(c.index())
                && IntStream.of(otherKeys).anyMatch(o -> o == c.index() - otherFrom)
                && DeterminedGroupKeys.primaryKeyScan(other, c.index() - otherFrom) != null);
        if (!pays(j, facts, other, grouped, byOthersKey)) {
            return null;
        }
        List<Expr> partialKeys = grouped.stream().map(c -> (Expr) new Expr.Column(c, facts.fields().get(c).type())).toList();
        List<AggregateCall> partialCalls = new ArrayList<>();
        List<Field> partialFields = new ArrayList<>();
        grouped.forEach(c -> partialFields.add(facts.fields().get(c)));
        ColumnNames factNames = ColumnNames.of(facts.fields());
        for (AggregateCall c : calls) {
            Expr arg = c.arg() == null ? null : Exprs.remap(c.arg(), i -> i - factsFrom);
            SqlType type = arg == null ? SqlType.BIGINT : AggregateCall.resultType(c.kind(), arg.type());
            AggregateCall partialCall = new AggregateCall(c.kind(), arg, false, type);
            partialCalls.add(partialCall);
            partialFields.add(new Field(null, "partial " + factNames.sql(partialCall), type)); // as EXPLAIN names it
        }
        // groups each node may make of the facts it holds: the GROUP BY above merges them anyway
        RelNode partial = new RelNode.PartialGroups(new RelNode.Aggregate(facts, partialKeys, partialCalls, partialFields));
        int pw = partialFields.size();
        int[] factKeys = positions(factsLeft ? j.leftKeys() : j.rightKeys(), grouped);
        RelNode.Join joined = factsLeft
                ? new RelNode.Join(partial, other, j.kind(), factKeys, j.rightKeys(), null)
                : new RelNode.Join(other, partial, j.kind(), j.leftKeys(), factKeys, null);
        int partialFrom = factsLeft ? 0 : lw;
        int otherShift = factsLeft ? pw - factsWidth : 0; // the other side's columns move when the facts narrow to the left
        List<Expr> outerKeys = keys.stream().map(k -> Exprs.remap(k, c -> c >= factsFrom && c < factsFrom + factsWidth
                ? partialFrom + grouped.indexOf(c - factsFrom) : c + otherShift)).toList();
        List<AggregateCall> merged = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall c = calls.get(i);
            Expr partialValue = new Expr.Column(partialFrom + grouped.size() + i, partialCalls.get(i).type());
            AggregateCall.Kind kind = c.kind() == AggregateCall.Kind.COUNT || c.kind() == AggregateCall.Kind.COUNT_STAR
                    ? AggregateCall.Kind.SUM : c.kind();
            merged.add(new AggregateCall(kind, partialValue, false, c.type()));
        }
        RelNode.Aggregate merging = new RelNode.Aggregate(joined, outerKeys, merged, fields);
        return j.kind() == JoinKind.LEFT && factsRight ? countsOfNoneAreZero(merging, calls) : merging;
    }

    /**
     * {@code a} (whose aggregates {@code calls} became) with each count of a group that met no
     * facts 0: the facts were the padded side of a LEFT join, so such a group's partial counts are
     * the padding's nulls, whose sum is null where the count over the join's rows is 0 (TPC-H Q13's
     * customers without orders).
     */
    private static RelNode countsOfNoneAreZero(RelNode.Aggregate a, List<AggregateCall> calls) {
        int keys = a.keys().size();
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < a.fields().size(); i++) {
            Expr value = new Expr.Column(i, a.fields().get(i).type());
            boolean count = i >= keys && calls.get(i - keys).kind() == AggregateCall.Kind.COUNT;
            exprs.add(count ? new Expr.Call(ScalarFunction.COALESCE, List.of(value, new Expr.Literal(0L, value.type())),
                    value.type()) : value);
        }
        return new RelNode.Project(a, exprs, a.fields());
    }

    /** Whether {@code node} filters its rows anywhere: as a join side, it may drop the facts it does not meet. */
    private static boolean filters(RelNode node) {
        if (node instanceof RelNode.Filter || node instanceof RelNode.Scan s && s.filter() != null) {
            return true;
        }
        return PlanPrinter.inputs(node).stream().anyMatch(EagerAggregation::filters);
    }

    /** Whether partial values of this kind merge into the whole by the same kind (counts: by a sum). */
    private static boolean mergedBySum(AggregateCall.Kind kind) {
        return switch (kind) {
            case COUNT_STAR, COUNT, SUM, MIN, MAX -> true;
            default -> false;
        };
    }

    /**
     * Whether the join keeps at least half the facts (grouping rows that a selective join would
     * drop, TPC-H Q3's one market segment, costs more than it saves), and either the GROUP BY's keys
     * hold the other side's primary key that the join meets ({@code byOthersKey}: the facts' groups
     * are then the final groups, split at most by node, and are made on one narrow key instead of
     * the other side's wide ones, TPC-H Q10's customers) or the facts' groups are estimated, from
     * the keys' known distinct values, at most half their rows and the other side at most half the
     * facts.
     */
    private boolean pays(RelNode.Join j, RelNode facts, RelNode other, List<Integer> grouped, boolean byOthersKey) {
        long rows = model.rows(facts);
        long otherRows = model.rows(other);
        long joined = model.rows(j);
        if (rows <= 0 || otherRows < 0 || joined < rows * MAX_GROUP_SHARE) {
            return false;
        }
        if (byOthersKey) {
            return true;
        }
        if (otherRows > rows * MAX_GROUP_SHARE) {
            return false;
        }
        List<Expr> keys = grouped.stream().map(c -> (Expr) new Expr.Column(c, facts.fields().get(c).type())).toList();
        double[] distinct = model.columns(facts);
        if (keys.stream().anyMatch(k -> Double.isNaN(model.distinct(k, facts.fields(), distinct)))) {
            return false; // groups guessed, not known, to be few: a table without statistics (files) may be all keys
        }
        long groups = model.groups(rows, keys, facts.fields(), distinct);
        return groups >= 0 && groups <= rows * MAX_GROUP_SHARE;
    }

    private static int[] positions(int[] columns, List<Integer> grouped) {
        int[] out = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            out[i] = grouped.indexOf(columns[i]);
        }
        return out;
    }

    private static void addOnce(List<Integer> list, int value) {
        if (!list.contains(value)) {
            list.add(value);
        }
    }
}

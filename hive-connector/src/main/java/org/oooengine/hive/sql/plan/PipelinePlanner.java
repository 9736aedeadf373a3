package org.oooengine.hive.sql.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * Moves to the nodes the work a table's rows need before they meet another table's: a scan with
 * the filters and projections above it becomes a {@link RelNode.NodePipeline}, and a GROUP BY
 * over such a chain is split in two — partial aggregates on every node, merged on the
 * coordinator ({@link RelNode.FinalAggregate}) — so that only groups cross the network. An
 * aggregate that cannot be split (DISTINCT) still reads only the columns it needs from the nodes.
 * Everything else keeps its place.
 */
public final class PipelinePlanner {
    private PipelinePlanner() {
    }

    public static RelNode plan(RelNode node) {
        if (node instanceof RelNode.Aggregate a) {
            Chain chain = Chain.of(a.input());
            if (chain != null) {
                return splitAggregate(a, chain);
            }
            return new RelNode.Aggregate(plan(a.input()), a.keys(), a.aggregates(), a.fields());
        }
        if (node instanceof RelNode.Project p) {
            Chain chain = Chain.of(p.input());
            if (chain != null) {
                return chain.then(new PipelineStep.Project(p.exprs()), p.fields());
            }
            return new RelNode.Project(plan(p.input()), p.exprs(), p.fields());
        }
        if (node instanceof RelNode.Filter f) {
            return new RelNode.Filter(plan(f.input()), f.condition());
        }
        if (node instanceof RelNode.Join j) {
            return new RelNode.Join(plan(j.left()), plan(j.right()), j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
        }
        if (node instanceof RelNode.Sort s) {
            return new RelNode.Sort(plan(s.input()), s.keys());
        }
        if (node instanceof RelNode.Limit l) {
            return new RelNode.Limit(plan(l.input()), l.offset(), l.count());
        }
        if (node instanceof RelNode.SingleRow s) {
            return new RelNode.SingleRow(plan(s.input()));
        }
        if (node instanceof RelNode.Union u) {
            return new RelNode.Union(u.inputs().stream().map(PipelinePlanner::plan).toList(), u.fields());
        }
        return node; // scans, index joins, values: they run where they are
    }

    private static RelNode splitAggregate(RelNode.Aggregate a, Chain chain) {
        if (a.aggregates().stream().allMatch(AggregateCall::splittable)) {
            List<Field> partial = new ArrayList<>(a.fields().subList(0, a.keys().size()));
            for (AggregateCall call : a.aggregates()) {
                partial.add(new Field(null, call + " count", SqlType.BIGINT));
                partial.add(new Field(null, call + " state", call.arg() == null ? SqlType.BIGINT : call.arg().type()));
            }
            RelNode.NodePipeline nodes = chain.then(new PipelineStep.PartialAggregate(a.keys(), a.aggregates()), partial);
            return new RelNode.FinalAggregate(nodes, a.keys().size(), a.aggregates(), a.fields());
        }
        // The nodes send the columns the aggregate reads, no more; the aggregate reads them in their new places.
        BitSet read = new BitSet();
        a.keys().forEach(k -> read.or(Exprs.columns(k)));
        a.aggregates().stream().filter(c -> c.arg() != null).forEach(c -> read.or(Exprs.columns(c.arg())));
        int[] position = new int[Math.max(read.length(), 1)];
        List<Expr> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        List<Field> inputFields = a.input().fields();
        for (int c = read.nextSetBit(0); c >= 0; c = read.nextSetBit(c + 1)) {
            position[c] = columns.size();
            columns.add(new Expr.Column(c, inputFields.get(c).type()));
            fields.add(inputFields.get(c));
        }
        RelNode.NodePipeline nodes = chain.then(new PipelineStep.Project(columns), fields);
        List<Expr> keys = a.keys().stream().map(k -> Exprs.remap(k, c -> position[c])).toList();
        List<AggregateCall> calls = a.aggregates().stream().map(c -> c.arg() == null ? c
                : new AggregateCall(c.kind(), Exprs.remap(c.arg(), i -> position[i]), c.distinct(), c.type())).toList();
        return new RelNode.Aggregate(nodes, keys, calls, a.fields());
    }

    /** A scan with only filters and projections above it: the steps a node can run for it. */
    private record Chain(RelNode.Scan scan, List<PipelineStep> steps) {
        static Chain of(RelNode node) {
            if (node instanceof RelNode.Scan s) {
                List<PipelineStep> steps = new ArrayList<>();
                if (s.filter() != null) {
                    steps.add(new PipelineStep.Filter(s.filter()));
                }
                return new Chain(s, steps);
            }
            if (node instanceof RelNode.Filter f) {
                Chain below = of(f.input());
                return below == null ? null : below.with(new PipelineStep.Filter(f.condition()));
            }
            if (node instanceof RelNode.Project p) {
                Chain below = of(p.input());
                return below == null ? null : below.with(new PipelineStep.Project(p.exprs()));
            }
            return null;
        }

        Chain with(PipelineStep step) {
            List<PipelineStep> more = new ArrayList<>(steps);
            more.add(step);
            return new Chain(scan, more);
        }

        RelNode.NodePipeline then(PipelineStep last, List<Field> fields) {
            return new RelNode.NodePipeline(scan, with(last).steps, fields);
        }
    }
}

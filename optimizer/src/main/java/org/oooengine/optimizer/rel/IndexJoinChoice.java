package org.oooengine.optimizer.rel;

import java.util.List;

/**
 * The first pass of physical planning: each chain of joins the index join could run
 * ({@link RelNode.IndexJoinCandidate}) becomes that index join when the {@link JoinChooser}
 * prefers it (asking the nodes how many rows the driving range holds, and the optimizer), and its
 * hash joins otherwise. Analysis itself asks the nodes nothing.
 */
public final class IndexJoinChoice {
    private final JoinChooser chooser;

    private IndexJoinChoice(JoinChooser chooser) {
        this.chooser = chooser;
    }

    /** {@code plan} with every candidate decided. */
    public static RelNode apply(RelNode plan, JoinChooser chooser) {
        return new IndexJoinChoice(chooser).visit(plan);
    }

    private RelNode visit(RelNode node) {
        if (node instanceof RelNode.IndexJoinCandidate c) {
            RelNode.IndexJoin join = chooser.choose(c.spec(), c.indexJoinFields());
            if (join == null) {
                return visit(c.hashJoins());
            }
            RelNode checked = c.recheck() == null ? join : new RelNode.Filter(join, c.recheck());
            return inHashJoinOrder(checked, c);
        }
        if (node instanceof RelNode.Filter f) {
            return new RelNode.Filter(visit(f.input()), f.condition());
        }
        if (node instanceof RelNode.Project p) {
            return new RelNode.Project(visit(p.input()), p.exprs(), p.fields());
        }
        if (node instanceof RelNode.Join j) {
            return new RelNode.Join(visit(j.left()), visit(j.right()), j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
        }
        if (node instanceof RelNode.Union u) {
            return new RelNode.Union(visitAll(u.inputs()), u.fields());
        }
        if (node instanceof RelNode.SingleRow s) {
            return new RelNode.SingleRow(visit(s.input()));
        }
        if (node instanceof RelNode.Aggregate a) {
            return new RelNode.Aggregate(visit(a.input()), a.keys(), a.aggregates(), a.fields());
        }
        if (node instanceof RelNode.Sort s) {
            return new RelNode.Sort(visit(s.input()), s.keys());
        }
        if (node instanceof RelNode.Limit l) {
            return new RelNode.Limit(visit(l.input()), l.offset(), l.count());
        }
        return node; // scans, values, index joins: nothing under them to decide
    }

    /** The index join's rows with their columns where the hash joins have them, which the plan above reads. */
    private static RelNode inHashJoinOrder(RelNode indexJoin, RelNode.IndexJoinCandidate c) {
        List<Integer> from = c.fromColumns();
        if (java.util.stream.IntStream.range(0, from.size()).allMatch(h -> from.get(h) == h)) {
            return indexJoin;
        }
        List<org.oooengine.core.sql.expr.Expr> columns = new java.util.ArrayList<>();
        for (int h = 0; h < from.size(); h++) {
            columns.add(new org.oooengine.core.sql.expr.Expr.Column(from.get(h), c.indexJoinFields().get(from.get(h)).type()));
        }
        return new RelNode.Project(indexJoin, columns, c.fields());
    }

    private List<RelNode> visitAll(List<RelNode> nodes) {
        return nodes.stream().map(this::visit).toList();
    }
}

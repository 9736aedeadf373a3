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
        return RelNode.mapInputs(node, this::visit); // scans, values, index joins: nothing under them to decide
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

}

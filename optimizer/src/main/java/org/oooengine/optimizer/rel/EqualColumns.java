package org.oooengine.optimizer.rel;

import java.util.HashMap;
import java.util.Map;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * Classes of columns that equalities ({@code a = b}, both columns) make equal: a = b and b = c
 * put a, b and c in one class. A join group's conjuncts imply equalities between relations no
 * conjunct links (TPC-H Q05: {@code c_nationkey = s_nationkey AND s_nationkey = n_nationkey} lets
 * customer meet nation first), and once two of a class's equalities are applied the third says
 * nothing more: applied again it would only be counted twice by the estimates.
 */
final class EqualColumns {
    private final Map<Integer, Integer> parent = new HashMap<>();

    /** The two columns {@code c} equates, or null when it is no equality of two columns. */
    static Expr.Column[] columnsOf(Expr c) {
        if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ && call.args().size() == 2
                && call.args().get(0) instanceof Expr.Column a && call.args().get(1) instanceof Expr.Column b
                && a.index() != b.index()) {
            return new Expr.Column[] {a, b};
        }
        return null;
    }

    /** The representative of {@code column}'s class. */
    int classOf(int column) {
        Integer p = parent.get(column);
        if (p == null || p == column) {
            return column;
        }
        int root = classOf(p);
        parent.put(column, root);
        return root;
    }

    /**
     * Whether {@code c} equates two columns already of one class — then it adds nothing; else an
     * equality of two columns joins their classes.
     */
    boolean redundant(Expr c) {
        Expr.Column[] pair = columnsOf(c);
        if (pair == null) {
            return false;
        }
        int a = classOf(pair[0].index());
        int b = classOf(pair[1].index());
        if (a == b) {
            return true;
        }
        parent.put(a, b);
        return false;
    }
}

package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.TOK_CROSSJOIN;
import static org.apache.hadoop.hive.ql.parse.HiveParser.TOK_FULLOUTERJOIN;
import static org.apache.hadoop.hive.ql.parse.HiveParser.TOK_JOIN;
import static org.apache.hadoop.hive.ql.parse.HiveParser.TOK_LEFTOUTERJOIN;
import static org.apache.hadoop.hive.ql.parse.HiveParser.TOK_RIGHTOUTERJOIN;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.JoinGraph;
import org.oooengine.optimizer.rel.RelNode;

/**
 * A FROM clause's joins as written, planned with the WHERE conjuncts placed as low as they keep
 * their meaning. Inner joins form groups planned with their conjuncts ({@link JoinPlanner}). An
 * outer join in a group becomes an inner one where a conjunct of the group rejects the rows it
 * pads with NULLs ({@link NullRejection}): {@code a LEFT JOIN b ... WHERE b.x = 1} keeps no row
 * without a b, so a and b join the group. A conjunct on the preserved side of an outer join that
 * stays one moves below it to that side (a row the join keeps is a row of that side, extended);
 * one on the null-supplying side (IS NULL, COALESCE, ...) or on both sides filters the join's
 * rows. An ON conjunct on the null-supplying side alone filters that side before the join (a row
 * failing it matches nothing, as if absent).
 */
final class FromClause {
    /** A FROM item with its columns: the concatenated columns of what it joins, left to right. */
    private sealed interface Tree {
        List<Field> fields();

        default int width() {
            return fields().size();
        }
    }

    /** A table or subquery, planned. */
    private record Leaf(RelNode rel) implements Tree {
        @Override
        public List<Field> fields() {
            return rel.fields();
        }
    }

    /** Relations inner-joined under ON conjuncts over their concatenated columns. */
    private record Inner(List<Tree> members, List<Expr> on, List<Field> fields) implements Tree {
    }

    /** An outer join of two sides under its ON conjuncts, over the left's columns then the right's. */
    private record Outer(JoinKind kind, Tree left, Tree right, List<Expr> on, List<Field> fields) implements Tree {
    }

    private final Function<ASTNode, RelNode> relation;

    /** {@code relation} plans a table reference or a subquery of the clause. */
    FromClause(Function<ASTNode, RelNode> relation) {
        this.relation = relation;
    }

    /** The FROM item {@code rel} with the WHERE conditions {@code conditions} (bound to its columns here). */
    RelNode plan(ASTNode rel, List<ASTNode> conditions) {
        Tree tree = tree(rel);
        ExprBinder binder = new ExprBinder(new Scope(tree.fields()));
        List<Expr> conjuncts = new ArrayList<>();
        conditions.forEach(c -> conjuncts.addAll(Exprs.conjuncts(binder.condition(c))));
        return plan(tree, conjuncts);
    }

    private Tree tree(ASTNode rel) {
        int type = rel.getType();
        if (type == TOK_JOIN || type == TOK_CROSSJOIN) {
            List<Tree> members = new ArrayList<>();
            List<ASTNode> on = new ArrayList<>();
            collectInner(rel, members, on);
            List<Field> fields = concatenated(members);
            ExprBinder binder = new ExprBinder(new Scope(fields));
            List<Expr> bound = new ArrayList<>();
            on.forEach(c -> bound.addAll(Exprs.conjuncts(binder.condition(c))));
            return new Inner(members, bound, fields);
        }
        JoinKind kind = type == TOK_LEFTOUTERJOIN ? JoinKind.LEFT : type == TOK_RIGHTOUTERJOIN ? JoinKind.RIGHT
                : type == TOK_FULLOUTERJOIN ? JoinKind.FULL : null;
        if (kind == null) {
            return new Leaf(relation.apply(rel));
        }
        Tree left = tree(Ast.child(rel, 0));
        Tree right = tree(Ast.child(rel, 1));
        if (rel.getChildCount() < 3) {
            throw Ast.error(SqlException.SYNTAX, "an outer join needs an ON condition", rel);
        }
        List<Field> fields = concatenated(List.of(left, right));
        Expr on = new ExprBinder(new Scope(fields)).condition(Ast.child(rel, 2));
        return new Outer(kind, left, right, Exprs.conjuncts(on), fields);
    }

    private void collectInner(ASTNode rel, List<Tree> members, List<ASTNode> on) {
        if (rel.getType() == TOK_JOIN || rel.getType() == TOK_CROSSJOIN) {
            collectInner(Ast.child(rel, 0), members, on);
            collectInner(Ast.child(rel, 1), members, on);
            if (rel.getChildCount() > 2) {
                on.add(Ast.child(rel, 2));
            }
        } else {
            members.add(tree(rel));
        }
    }

    private static List<Field> concatenated(List<Tree> trees) {
        List<Field> all = new ArrayList<>();
        trees.forEach(t -> all.addAll(t.fields()));
        return all;
    }

    /** {@code tree} with {@code conditions} (conjuncts over its columns) applied. */
    private RelNode plan(Tree tree, List<Expr> conditions) {
        List<Tree> members = new ArrayList<>();
        List<Expr> conjuncts = new ArrayList<>(conditions);
        addMember(tree, 0, members, members.size(), conjuncts);
        while (narrowOuterJoin(members, conjuncts)) {
            // again: a join made inner brings its ON conjuncts, which may reject another's NULLs
        }
        List<RelNode> planned = new ArrayList<>();
        int at = 0;
        for (Tree member : members) {
            if (member instanceof Outer o) {
                planned.add(planOuter(o, takeConjunctsOnPreservedSide(o, at, conjuncts)));
            } else {
                planned.add(((Leaf) member).rel());
            }
            at += member.width();
        }
        if (planned.size() == 1 && conjuncts.isEmpty()) {
            return planned.get(0);
        }
        return JoinPlanner.plan(planned, conjuncts);
    }

    /**
     * {@code tree} as members of the group at position {@code index}, its columns starting at
     * {@code start} of the group's row: an inner join's relations are members themselves, its ON
     * conjuncts the group's.
     */
    private static int addMember(Tree tree, int start, List<Tree> members, int index, List<Expr> conjuncts) {
        if (!(tree instanceof Inner inner)) {
            members.add(index, tree);
            return index + 1;
        }
        inner.on().forEach(c -> conjuncts.add(Exprs.remap(c, x -> x + start)));
        int at = start;
        for (Tree m : inner.members()) {
            index = addMember(m, at, members, index, conjuncts);
            at += m.width();
        }
        return index;
    }

    /**
     * Narrows the first outer join of the group that a conjunct allows to: an inner join (its
     * sides become members) or, for a FULL join, a LEFT or RIGHT one. Whether one changed.
     */
    private static boolean narrowOuterJoin(List<Tree> members, List<Expr> conjuncts) {
        int at = 0;
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i) instanceof Outer o) {
                BitSet left = range(at, at + o.left().width());
                BitSet right = range(at + o.left().width(), at + o.width());
                boolean leftPadsRejected = conjuncts.stream().anyMatch(c -> NullRejection.rejects(c, left));
                boolean rightPadsRejected = conjuncts.stream().anyMatch(c -> NullRejection.rejects(c, right));
                boolean nullsOnLeft = o.kind() == JoinKind.RIGHT || o.kind() == JoinKind.FULL;
                boolean nullsOnRight = o.kind() == JoinKind.LEFT || o.kind() == JoinKind.FULL;
                boolean keepsLeftPads = nullsOnLeft && !leftPadsRejected;
                boolean keepsRightPads = nullsOnRight && !rightPadsRejected;
                JoinKind kind = keepsLeftPads && keepsRightPads ? JoinKind.FULL : keepsLeftPads ? JoinKind.RIGHT
                        : keepsRightPads ? JoinKind.LEFT : JoinKind.INNER;
                if (kind == JoinKind.INNER) {
                    members.remove(i);
                    int next = addMember(o.left(), at, members, i, conjuncts);
                    addMember(o.right(), at + o.left().width(), members, next, conjuncts);
                    int start = at;
                    o.on().forEach(c -> conjuncts.add(Exprs.remap(c, x -> x + start)));
                    return true;
                }
                if (kind != o.kind()) {
                    members.set(i, new Outer(kind, o.left(), o.right(), o.on(), o.fields()));
                    return true;
                }
            }
            at += members.get(i).width();
        }
        return false;
    }

    private static BitSet range(int from, int to) {
        BitSet b = new BitSet();
        b.set(from, to);
        return b;
    }

    /**
     * The conjuncts of the group that read only the preserved side of the outer join {@code o}
     * (its columns from {@code start}), removed from the group, over the join's own columns.
     */
    private static List<Expr> takeConjunctsOnPreservedSide(Outer o, int start, List<Expr> conjuncts) {
        List<Expr> taken = new ArrayList<>();
        if (o.kind() == JoinKind.FULL) {
            return taken;
        }
        int from = o.kind() == JoinKind.LEFT ? start : start + o.left().width();
        int to = o.kind() == JoinKind.LEFT ? start + o.left().width() : start + o.width();
        for (Expr c : List.copyOf(conjuncts)) {
            BitSet cols = Exprs.columns(c);
            if (!cols.isEmpty() && cols.nextSetBit(0) >= from && cols.length() <= to) {
                conjuncts.remove(c);
                taken.add(Exprs.remap(c, x -> x - start));
            }
        }
        return taken;
    }

    /**
     * The outer join {@code o} with {@code conditions} (over its columns, on its preserved side)
     * applied to that side, and its ON conjuncts on the null-supplying side alone to that one.
     */
    private RelNode planOuter(Outer o, List<Expr> conditions) {
        int width = o.left().width();
        List<Expr> leftConditions = new ArrayList<>();
        List<Expr> rightConditions = new ArrayList<>();
        List<Expr> on = new ArrayList<>();
        for (Expr c : conditions) {
            if (o.kind() == JoinKind.LEFT) {
                leftConditions.add(c);
            } else {
                rightConditions.add(Exprs.remap(c, x -> x - width));
            }
        }
        for (Expr c : o.on()) {
            BitSet cols = Exprs.columns(c);
            if (o.kind() == JoinKind.LEFT && !cols.isEmpty() && cols.nextSetBit(0) >= width) {
                rightConditions.add(Exprs.remap(c, x -> x - width));
            } else if (o.kind() == JoinKind.RIGHT && !cols.isEmpty() && cols.length() <= width) {
                leftConditions.add(c);
            } else {
                on.add(c);
            }
        }
        return JoinGraph.join(plan(o.left(), leftConditions), plan(o.right(), rightConditions), o.kind(), on);
    }
}

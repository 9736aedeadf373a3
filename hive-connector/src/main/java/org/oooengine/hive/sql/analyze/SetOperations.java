package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * The set operations besides UNION: {@code INTERSECT} and {@code EXCEPT} (Hive's {@code MINUS}),
 * each DISTINCT (the default) or ALL. Both sides' rows, tagged with their side, are grouped by
 * every column — so that NULLs meet NULLs, as in any set operation — counting each side's copies
 * of a row; the counts then say what comes out: INTERSECT a row both sides have (ALL: the smaller
 * count of times), EXCEPT a row only the left side has (ALL: the left count less the right one,
 * when positive). Being a GROUP BY, it is held and spilled as one.
 */
final class SetOperations {
    private SetOperations() {
    }

    /** Whether {@code n} is an INTERSECT or an EXCEPT. */
    static boolean isIntersectOrExcept(ASTNode n) {
        int t = n.getType();
        return t == TOK_INTERSECTALL || t == TOK_INTERSECTDISTINCT || t == TOK_EXCEPTALL || t == TOK_EXCEPTDISTINCT;
    }

    /** The plan of an INTERSECT or EXCEPT of the branches, each planned by {@code query}. */
    static RelNode plan(ASTNode n, Function<ASTNode, RelNode> query) {
        boolean intersect = n.getType() == TOK_INTERSECTALL || n.getType() == TOK_INTERSECTDISTINCT;
        boolean all = n.getType() == TOK_INTERSECTALL || n.getType() == TOK_EXCEPTALL;
        String name = (intersect ? "INTERSECT" : "EXCEPT") + (all ? " ALL" : "");
        List<RelNode> branches = new ArrayList<>();
        for (ASTNode c : Ast.children(n)) {
            branches.add(query.apply(c));
        }
        List<RelNode> aligned = aligned(branches, name, n);
        RelNode rows = aligned.get(0);
        for (int i = 1; i < aligned.size(); i++) { // a chain of one operation: from the left
            rows = combine(rows, aligned.get(i), intersect, all);
        }
        return rows;
    }

    /**
     * The branches of a set operation with their columns brought to the types all branches share,
     * named as the first branch names them; an error when they have different numbers of columns.
     */
    static List<RelNode> aligned(List<RelNode> branches, String operation, ASTNode at) {
        int width = branches.get(0).fields().size();
        List<SqlType> types = new ArrayList<>();
        for (Field f : branches.get(0).fields()) {
            types.add(f.type());
        }
        for (RelNode b : branches) {
            if (b.fields().size() != width) {
                throw Ast.error(SqlException.SYNTAX, "the branches of " + (operation.startsWith("UNION") ? "a " : "an ")
                        + operation + " have " + width + " and " + b.fields().size() + " columns", at);
            }
            for (int i = 0; i < width; i++) {
                types.set(i, Types.common(types.get(i), b.fields().get(i).type()));
            }
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            fields.add(new Field(null, branches.get(0).fields().get(i).name(), types.get(i)));
        }
        List<RelNode> cast = new ArrayList<>();
        for (RelNode b : branches) {
            List<Expr> columns = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                columns.add(ExprBinder.cast(new Expr.Column(i, b.fields().get(i).type()), types.get(i)));
            }
            cast.add(new RelNode.Project(b, columns, fields));
        }
        return cast;
    }

    /** {@code left} INTERSECT or EXCEPT {@code right}, both of the same columns. */
    private static RelNode combine(RelNode left, RelNode right, boolean intersect, boolean all) {
        List<Field> fields = left.fields();
        int width = fields.size();
        // each row with a marker that is not null on its own side: count(marker) counts a side's copies
        List<Field> tagged = new ArrayList<>(fields);
        tagged.add(new Field(null, "left side", SqlType.BIGINT));
        tagged.add(new Field(null, "right side", SqlType.BIGINT));
        RelNode both = new RelNode.Union(List.of(tag(left, tagged, true), tag(right, tagged, false)), tagged);
        List<Expr> keys = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            keys.add(new Expr.Column(i, fields.get(i).type()));
        }
        List<AggregateCall> counts = List.of(
                new AggregateCall(AggregateCall.Kind.COUNT, new Expr.Column(width, SqlType.BIGINT), false, SqlType.BIGINT),
                new AggregateCall(AggregateCall.Kind.COUNT, new Expr.Column(width + 1, SqlType.BIGINT), false, SqlType.BIGINT));
        List<Field> counted = new ArrayList<>(fields);
        counted.add(new Field(null, "left count", SqlType.BIGINT));
        counted.add(new Field(null, "right count", SqlType.BIGINT));
        RelNode groups = new RelNode.Aggregate(both, keys, counts, counted);
        Expr leftCount = new Expr.Column(width, SqlType.BIGINT);
        Expr rightCount = new Expr.Column(width + 1, SqlType.BIGINT);
        if (!all) {
            Expr kept = intersect ? Exprs.and(List.of(positive(leftCount), positive(rightCount)))
                    : Exprs.and(List.of(positive(leftCount), new Expr.Call(ScalarFunction.EQ,
                    List.of(rightCount, zero()), SqlType.BOOLEAN)));
            return columns(new RelNode.Filter(groups, kept), fields);
        }
        Expr copies = intersect ? new Expr.Call(ScalarFunction.LEAST, List.of(leftCount, rightCount), SqlType.BIGINT)
                : new Expr.Call(ScalarFunction.SUBTRACT, List.of(leftCount, rightCount), SqlType.BIGINT);
        RelNode kept = new RelNode.Filter(groups, intersect ? Exprs.and(List.of(positive(leftCount), positive(rightCount)))
                : new Expr.Call(ScalarFunction.GT, List.of(leftCount, rightCount), SqlType.BOOLEAN));
        List<Expr> withCopies = new ArrayList<>(keys);
        withCopies.add(copies);
        List<Field> withCopiesFields = new ArrayList<>(fields);
        withCopiesFields.add(new Field(null, "copies", SqlType.BIGINT));
        RelNode replicated = new RelNode.Replicate(new RelNode.Project(kept, withCopies, withCopiesFields), width);
        return columns(replicated, fields);
    }

    /** A side's rows with the two markers: 1 on its own side's, null on the other's. */
    private static RelNode tag(RelNode side, List<Field> tagged, boolean left) {
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < side.fields().size(); i++) {
            exprs.add(new Expr.Column(i, side.fields().get(i).type()));
        }
        Expr one = new Expr.Literal(1L, SqlType.BIGINT);
        Expr none = new Expr.Literal(null, SqlType.BIGINT);
        exprs.add(left ? one : none);
        exprs.add(left ? none : one);
        return new RelNode.Project(side, exprs, tagged);
    }

    private static Expr positive(Expr count) {
        return new Expr.Call(ScalarFunction.GT, List.of(count, zero()), SqlType.BOOLEAN);
    }

    private static Expr zero() {
        return new Expr.Literal(0L, SqlType.BIGINT);
    }

    /** The first {@code fields.size()} columns of {@code rows}. */
    private static RelNode columns(RelNode rows, List<Field> fields) {
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            exprs.add(new Expr.Column(i, fields.get(i).type()));
        }
        return new RelNode.Project(rows, exprs, fields);
    }
}

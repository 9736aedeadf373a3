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
 * when positive). Being a GROUP BY, it is held and spilled as one. A chain of one operation
 * ({@code a INTERSECT b INTERSECT c}) is one GROUP BY over every operand, a count each: grouped
 * once, and split over the nodes as any GROUP BY over a UNION ALL of their scans (TPC-DS Q14's
 * three channels' items), where nested ones would gather the last operand's rows whole.
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
        for (ASTNode c : operands(n, intersect)) {
            branches.add(query.apply(c));
        }
        return combine(aligned(branches, name, n), intersect, all);
    }

    /**
     * The operands of {@code n}, with those of the same operation nested in it taken in: any of an
     * INTERSECT's (it is associative and commutative, ALL too: the least count of all), only the
     * left one of an EXCEPT's ((a EXCEPT b) EXCEPT c removes b's and c's rows from a; ALL: a's
     * count less theirs).
     */
    private static List<ASTNode> operands(ASTNode n, boolean intersect) {
        List<ASTNode> out = new ArrayList<>();
        List<ASTNode> children = Ast.children(n);
        for (int i = 0; i < children.size(); i++) {
            ASTNode c = children.get(i);
            if (c.getType() == n.getType() && (intersect || i == 0)) {
                out.addAll(operands(c, intersect));
            } else {
                out.add(c);
            }
        }
        return out;
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

    /**
     * The first operand INTERSECT or EXCEPT each of the others, all of the same columns: one GROUP
     * BY of every column over all their rows, counting each operand's copies of a row.
     */
    private static RelNode combine(List<RelNode> operands, boolean intersect, boolean all) {
        List<Field> fields = operands.get(0).fields();
        int width = fields.size();
        int sides = operands.size();
        // each row with a marker per operand, not null on its own: count(marker) counts its copies
        List<Field> tagged = new ArrayList<>(fields);
        List<Field> counted = new ArrayList<>(fields);
        List<AggregateCall> counts = new ArrayList<>();
        List<Expr> countColumns = new ArrayList<>();
        for (int side = 0; side < sides; side++) {
            tagged.add(new Field(null, "side " + (side + 1), SqlType.BIGINT));
            counted.add(new Field(null, "count " + (side + 1), SqlType.BIGINT));
            counts.add(new AggregateCall(AggregateCall.Kind.COUNT, new Expr.Column(width + side, SqlType.BIGINT), false,
                    SqlType.BIGINT));
            countColumns.add(new Expr.Column(width + side, SqlType.BIGINT));
        }
        List<RelNode> tags = new ArrayList<>();
        for (int side = 0; side < sides; side++) {
            tags.add(tag(operands.get(side), tagged, side, sides));
        }
        List<Expr> keys = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            keys.add(new Expr.Column(i, fields.get(i).type()));
        }
        RelNode groups = new RelNode.Aggregate(new RelNode.Union(tags, tagged), keys, counts, counted);
        Expr first = countColumns.get(0);
        List<Expr> others = countColumns.subList(1, sides);
        // EXCEPT ALL: the first operand's copies less all the others' (each removing as many as it has)
        Expr fewer = others.stream().reduce(first, (left, right) ->
                new Expr.Call(ScalarFunction.SUBTRACT, List.of(left, right), SqlType.BIGINT));
        Expr kept;
        if (intersect) {
            kept = Exprs.and(countColumns.stream().map(SetOperations::positive).toList());
        } else if (all) {
            kept = positive(fewer);
        } else {
            List<Expr> conjuncts = new ArrayList<>(List.of(positive(first)));
            others.forEach(c -> conjuncts.add(new Expr.Call(ScalarFunction.EQ, List.of(c, zero()), SqlType.BOOLEAN)));
            kept = Exprs.and(conjuncts);
        }
        RelNode filtered = new RelNode.Filter(groups, kept);
        if (!all) {
            return columns(filtered, fields);
        }
        Expr copies = intersect ? new Expr.Call(ScalarFunction.LEAST, countColumns, SqlType.BIGINT) : fewer;
        List<Expr> withCopies = new ArrayList<>(keys);
        withCopies.add(copies);
        List<Field> withCopiesFields = new ArrayList<>(fields);
        withCopiesFields.add(new Field(null, "copies", SqlType.BIGINT));
        RelNode replicated = new RelNode.Replicate(new RelNode.Project(filtered, withCopies, withCopiesFields), width);
        return columns(replicated, fields);
    }

    /** An operand's rows with the markers: 1 on its own {@code side}'s, null on the others'. */
    private static RelNode tag(RelNode operand, List<Field> tagged, int side, int sides) {
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < operand.fields().size(); i++) {
            exprs.add(new Expr.Column(i, operand.fields().get(i).type()));
        }
        for (int s = 0; s < sides; s++) {
            exprs.add(new Expr.Literal(s == side ? 1L : null, SqlType.BIGINT));
        }
        return new RelNode.Project(operand, exprs, tagged);
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

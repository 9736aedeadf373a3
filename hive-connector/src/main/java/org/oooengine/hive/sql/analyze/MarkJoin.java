package org.oooengine.hive.sql.analyze;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.JoinGraph;
import org.oooengine.optimizer.rel.RelNode;

/**
 * EXISTS and IN as a boolean column of the rows (a "mark"), for a subquery a semi or anti join
 * cannot stand for: under OR, NOT or CASE, or a correlated NOT IN. The rows are left-joined with
 * the subquery's distinct join keys, so a row meets at most one of them and keeps its
 * multiplicity; the mark is whether it met one. Correlated conditions must therefore be
 * equalities between the outer row and the subquery's row (each pins one key).
 *
 * <p>IN is three-valued: {@code x IN (s)} is unknown, not false, when nothing matches but x is
 * null or s holds a null. Where that differs from false (under NOT or CASE), the rows are also
 * joined with the count of s's rows and of its non-null values (per correlation key).
 */
final class MarkJoin {
    private static final Expr TRUE = new Expr.Literal(true, SqlType.BOOLEAN);
    private static final Expr FALSE = new Expr.Literal(false, SqlType.BOOLEAN);
    private static final Expr UNKNOWN = new Expr.Literal(null, SqlType.BOOLEAN);

    /** One equality of a lifted condition: an expression of the outer row, one of the subquery's row. */
    private record KeyPair(Expr outer, Expr inner) {
    }

    /** The rows joined with the distinct keys, and the columns of it holding the keys' outer sides. */
    private record Joined(RelNode rows, List<Expr> outerKeys) {
    }

    private MarkJoin() {
    }

    /** {@code rows} with one more column: whether the uncorrelated subquery {@code right} has a row. */
    static RelNode nonEmpty(RelNode rows, RelNode right, String name) {
        RelNode count = new RelNode.Aggregate(right, List.of(),
                List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT)),
                List.of(new Field(null, name + "$rows", SqlType.BIGINT)));
        int width = rows.fields().size();
        RelNode joined = JoinGraph.join(rows, count, JoinKind.CROSS, List.of());
        Expr some = new Expr.Call(ScalarFunction.GT,
                List.of(new Expr.Column(width, SqlType.BIGINT), new Expr.Literal(0L, SqlType.BIGINT)), SqlType.BOOLEAN);
        return withMark(joined, width, some, name);
    }

    /**
     * {@code rows} with one more column: whether a row of {@code right} meets {@code conditions}
     * (over the rows then right's columns) — a correlated EXISTS.
     */
    static RelNode exists(RelNode rows, RelNode right, List<Expr> conditions, String name, ASTNode at) {
        int width = rows.fields().size();
        List<KeyPair> keys = keyPairs(conditions, width, at);
        RelNode joined = joinDistinct(rows, right, keys, name).rows();
        Expr met = new Expr.IsNull(new Expr.Column(joined.fields().size() - 1, SqlType.BOOLEAN), true);
        return withMark(joined, width, met, name);
    }

    /**
     * {@code rows} with one more column: {@code x IN (right's last column)} where {@code value}
     * is {@code x = that column} and {@code conditions} the correlated ones. {@code threeValued}:
     * the mark is SQL's unknown where it should be; otherwise it is false there too (enough for a
     * condition that only ANDs and ORs it, where unknown filters as false does).
     */
    static RelNode in(RelNode rows, RelNode right, List<Expr> conditions, Expr value, boolean threeValued,
            String name, ASTNode at) {
        int width = rows.fields().size();
        List<KeyPair> correlation = keyPairs(conditions, width, at);
        KeyPair tested = keyPairs(List.of(value), width, at).get(0);
        List<KeyPair> keys = new ArrayList<>(correlation);
        keys.add(tested);
        Joined j = joinDistinct(rows, right, keys, name);
        RelNode joined = j.rows();
        Expr matched = new Expr.IsNull(new Expr.Column(joined.fields().size() - 1, SqlType.BOOLEAN), true);
        if (!threeValued) {
            return withMark(joined, width, matched, name);
        }
        // per correlation key: how many rows, how many of them with a non-null value
        List<Expr> statsColumns = new ArrayList<>(correlation.stream().map(KeyPair::inner).toList());
        statsColumns.add(tested.inner());
        RelNode projected = project(right, statsColumns, name);
        int n = correlation.size();
        List<Expr> groupKeys = new ArrayList<>();
        List<Field> statsFields = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            groupKeys.add(new Expr.Column(i, statsColumns.get(i).type()));
            statsFields.add(projected.fields().get(i));
        }
        statsFields.add(new Field(null, name + "$rows", SqlType.BIGINT));
        statsFields.add(new Field(null, name + "$values", SqlType.BIGINT));
        RelNode stats = new RelNode.Aggregate(projected, groupKeys, List.of(
                new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                new AggregateCall(AggregateCall.Kind.COUNT, new Expr.Column(n, tested.inner().type()), false, SqlType.BIGINT)),
                statsFields);
        int before = joined.fields().size();
        List<Expr> on = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            on.add(new Expr.Call(ScalarFunction.EQ, List.of(j.outerKeys().get(i),
                    new Expr.Column(before + i, statsColumns.get(i).type())), SqlType.BOOLEAN));
        }
        // uncorrelated: one row of counts (0 for an empty subquery); correlated: none for a key without rows
        RelNode withStats = JoinGraph.join(joined, stats, n == 0 ? JoinKind.CROSS : JoinKind.LEFT, on);
        Expr rowCount = new Expr.Column(before + n, SqlType.BIGINT);
        Expr valueCount = new Expr.Column(before + n + 1, SqlType.BIGINT);
        Expr zero = new Expr.Literal(0L, SqlType.BIGINT);
        Expr empty = new Expr.Or(List.of(new Expr.IsNull(rowCount, false),
                new Expr.Call(ScalarFunction.EQ, List.of(rowCount, zero), SqlType.BOOLEAN)));
        Expr someNull = new Expr.Call(ScalarFunction.LT, List.of(valueCount, rowCount), SqlType.BOOLEAN);
        Expr mark = new Expr.Case(
                List.of(empty, new Expr.IsNull(tested.outer(), false), matched, someNull),
                List.of(FALSE, UNKNOWN, TRUE, UNKNOWN), FALSE, SqlType.BOOLEAN);
        return withMark(withStats, width, mark, name);
    }

    /**
     * {@code rows} left-joined with the distinct values of the keys' inner sides and a TRUE column
     * (last): null where a row met none. Each key pins one inner value, so a row meets at most one.
     */
    private static Joined joinDistinct(RelNode rows, RelNode right, List<KeyPair> keys, String name) {
        RelNode projected = project(right, keys.stream().map(KeyPair::inner).toList(), name);
        List<Expr> all = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            all.add(new Expr.Column(i, projected.fields().get(i).type()));
        }
        RelNode distinct = new RelNode.Aggregate(projected, all, List.of(), projected.fields());
        List<Expr> marked = new ArrayList<>(all);
        marked.add(TRUE);
        List<Field> fields = new ArrayList<>(distinct.fields());
        fields.add(new Field(null, name + "$match", SqlType.BOOLEAN));
        RelNode right2 = new RelNode.Project(distinct, marked, fields);
        // outer sides that are not columns become columns, so the join hashes on them
        int width = rows.fields().size();
        List<Expr> leftColumns = new ArrayList<>();
        List<Field> leftFields = new ArrayList<>(rows.fields());
        for (int i = 0; i < width; i++) {
            leftColumns.add(new Expr.Column(i, rows.fields().get(i).type()));
        }
        List<Expr> outerKeys = new ArrayList<>();
        for (KeyPair k : keys) {
            if (k.outer() instanceof Expr.Column) {
                outerKeys.add(k.outer());
            } else {
                outerKeys.add(new Expr.Column(leftColumns.size(), k.outer().type()));
                leftColumns.add(k.outer());
                leftFields.add(new Field(null, name + "$key" + outerKeys.size(), k.outer().type()));
            }
        }
        RelNode left = leftColumns.size() == width ? rows : new RelNode.Project(rows, leftColumns, leftFields);
        int leftWidth = leftColumns.size();
        List<Expr> on = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            on.add(new Expr.Call(ScalarFunction.EQ, List.of(outerKeys.get(i),
                    new Expr.Column(leftWidth + i, all.get(i).type())), SqlType.BOOLEAN));
        }
        return new Joined(JoinGraph.join(left, right2, JoinKind.LEFT, on), outerKeys);
    }

    /** The equalities of lifted conditions split into their sides; anything else is refused. */
    private static List<KeyPair> keyPairs(List<Expr> conditions, int width, ASTNode at) {
        List<KeyPair> out = new ArrayList<>();
        for (Expr c : conditions) {
            KeyPair p = null;
            if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ) {
                p = split(call.args().get(0), call.args().get(1), width);
                if (p == null) {
                    p = split(call.args().get(1), call.args().get(0), width);
                }
            }
            if (p == null) {
                throw Ast.notSupported("an EXISTS or IN subquery under OR, NOT or CASE whose condition on the outer "
                        + "query is not an equality of an outer expression and a subquery expression", at);
            }
            out.add(p);
        }
        return out;
    }

    private static KeyPair split(Expr outer, Expr inner, int width) {
        BitSet o = Exprs.columns(outer);
        BitSet i = Exprs.columns(inner);
        boolean outerOnly = o.length() <= width;
        boolean innerOnly = !i.isEmpty() && i.nextSetBit(0) >= width;
        return outerOnly && innerOnly ? new KeyPair(outer, Exprs.remap(inner, x -> x - width)) : null;
    }

    private static RelNode project(RelNode input, List<Expr> exprs, String name) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            fields.add(exprs.get(i) instanceof Expr.Column c ? input.fields().get(c.index())
                    : new Field(null, name + "$key" + (i + 1), exprs.get(i).type()));
        }
        return new RelNode.Project(input, exprs, fields);
    }

    /** The first {@code width} columns of {@code joined} and the mark, named {@code name}. */
    private static RelNode withMark(RelNode joined, int width, Expr mark, String name) {
        List<Expr> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            columns.add(new Expr.Column(i, joined.fields().get(i).type()));
            fields.add(joined.fields().get(i));
        }
        columns.add(mark);
        fields.add(new Field(null, name, SqlType.BOOLEAN));
        return new RelNode.Project(joined, columns, fields);
    }
}

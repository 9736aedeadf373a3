package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Hive's GROUP BY with several grouping sets: {@code GROUP BY a, b WITH ROLLUP} or
 * {@code ROLLUP(a, b)}, {@code WITH CUBE} or {@code CUBE(a, b)}, and {@code GROUP BY a, b
 * GROUPING SETS ((a, b), a, ())}. Each input row is copied once per set ({@link RelNode.Expand}),
 * the keys outside the set made null and the set's grouping id added, and an ordinary GROUP BY of
 * the keys and the id aggregates the copies: one result row per group of each set.
 *
 * <p>The grouping id is Hive's since 2.3 (the SQL standard's): one bit per GROUP BY key, the
 * first key the most significant, set when the key is not in the row's grouping set (aggregated
 * away). {@code GROUPING__ID} is that number; {@code grouping(k1, ..., km)} the bits of its
 * arguments, {@code k1} the most significant. Both are BIGINT, as in Hive 4.
 */
final class GroupingSets {
    /** What {@code GROUPING__ID} is called, as a column of the groups. */
    static final String GROUPING_ID = "grouping__id";
    /** Keys a grouping id has room for, one bit each. */
    private static final int MAX_KEYS = 63;
    /** Sets a GROUP BY may make (CUBE of n keys makes 2^n): each copies every input row. */
    static final int MAX_SETS = 4096;

    /** Key positions in each set, in the order written, without repeats; null for a plain GROUP BY. */
    private final List<Set<Integer>> sets;
    private final int keyCount;

    private GroupingSets(List<Set<Integer>> sets, int keyCount) {
        this.sets = sets;
        this.keyCount = keyCount;
    }

    /** The GROUP BY clause of an insert body, whichever form it has, or null. */
    static ASTNode clause(ASTNode insert) {
        for (ASTNode c : Ast.children(insert)) {
            int t = c.getType();
            if (t == TOK_GROUPBY || t == TOK_ROLLUP_GROUPBY || t == TOK_CUBE_GROUPBY || t == TOK_GROUPING_SETS) {
                return c;
            }
        }
        return null;
    }

    /** The GROUP BY keys as written (GROUPING SETS' sets follow them in the tree). */
    static List<ASTNode> keyNodes(ASTNode groupBy) {
        return Ast.children(groupBy).stream().filter(c -> c.getType() != TOK_GROUPING_SETS_EXPRESSION).toList();
    }

    /**
     * The sets of {@code groupBy} over its distinct bound {@code keys}; a plain GROUP BY has one
     * set (of every key), and says so by {@link #several()} false.
     */
    static GroupingSets of(ASTNode groupBy, ExprBinder binder, List<Expr> keys) {
        int n = keys.size();
        if (groupBy == null || groupBy.getType() == TOK_GROUPBY) {
            return new GroupingSets(null, n);
        }
        if (n > MAX_KEYS) {
            throw Ast.notSupported("GROUPING SETS, ROLLUP or CUBE over more than " + MAX_KEYS + " keys", groupBy);
        }
        Set<Set<Integer>> sets = new LinkedHashSet<>(); // a set written twice is one set, as in Hive
        switch (groupBy.getType()) {
            case TOK_ROLLUP_GROUPBY -> {
                for (int size = n; size >= 0; size--) {
                    sets.add(range(size));
                }
            }
            case TOK_CUBE_GROUPBY -> {
                if (n > 12) {
                    throw Ast.notSupported("CUBE of more than 12 keys (" + (1L << n) + " grouping sets)", groupBy);
                }
                for (long mask = (1L << n) - 1; mask >= 0; mask--) {
                    Set<Integer> set = new LinkedHashSet<>();
                    for (int j = 0; j < n; j++) {
                        if ((mask & (1L << (n - 1 - j))) != 0) {
                            set.add(j);
                        }
                    }
                    sets.add(set);
                }
            }
            default -> {
                for (ASTNode s : Ast.children(groupBy)) {
                    if (s.getType() == TOK_GROUPING_SETS_EXPRESSION) {
                        Set<Integer> set = new LinkedHashSet<>();
                        Ast.children(s).forEach(e -> set.add(keyIndex(e, binder, keys, "a grouping set")));
                        sets.add(set);
                    }
                }
            }
        }
        if (sets.size() > MAX_SETS) {
            throw Ast.notSupported("more than " + MAX_SETS + " grouping sets", groupBy);
        }
        return new GroupingSets(List.copyOf(sets), n);
    }

    private static Set<Integer> range(int size) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int j = 0; j < size; j++) {
            s.add(j);
        }
        return s;
    }

    /** Which GROUP BY key {@code e} is; an error naming {@code where} when it is none, as in Hive. */
    private static int keyIndex(ASTNode e, ExprBinder binder, List<Expr> keys, String where) {
        int j = keys.indexOf(binder.bind(e));
        if (j < 0) {
            throw Ast.error(SqlException.SYNTAX, "an expression of " + where + " must be a GROUP BY key", e);
        }
        return j;
    }

    /** Whether there is more than the one set of a plain GROUP BY (then the groups have a grouping id). */
    boolean several() {
        return sets != null;
    }

    /** The grouping id of a set: a bit per key not in it, the first key the most significant. */
    private long groupingId(Set<Integer> set) {
        long id = 0;
        for (int j = 0; j < keyCount; j++) {
            if (!set.contains(j)) {
                id |= 1L << (keyCount - 1 - j);
            }
        }
        return id;
    }

    /**
     * The GROUP BY of {@code rows}: its copies per set (the input's columns, then each key or a
     * null, then the grouping id), grouped by the keys and the id. Output: the keys, the id, the
     * aggregates ({@code fields}); the aggregates read the input's columns, which keep their places.
     */
    RelNode aggregate(RelNode rows, List<Expr> keys, List<Field> keyFields, List<AggregateCall> aggregates,
                      List<Field> fields) {
        int width = rows.fields().size();
        if (sets.size() == 1) { // one set: no copies, its keys (nulls for those it leaves out) and its id are the keys
            List<Expr> groupKeys = new ArrayList<>();
            for (int j = 0; j < keys.size(); j++) {
                groupKeys.add(sets.get(0).contains(j) ? keys.get(j) : new Expr.Literal(null, keys.get(j).type()));
            }
            groupKeys.add(new Expr.Literal(groupingId(sets.get(0)), SqlType.BIGINT));
            RelNode groups = new RelNode.Aggregate(rows, groupKeys, aggregates, fields);
            return sets.get(0).isEmpty() ? withGrandTotal(groups, keys.size(), aggregates) : groups;
        }
        List<List<Expr>> projections = new ArrayList<>();
        for (Set<Integer> set : sets) {
            List<Expr> copy = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                copy.add(new Expr.Column(i, rows.fields().get(i).type()));
            }
            for (int j = 0; j < keys.size(); j++) {
                copy.add(set.contains(j) ? keys.get(j) : new Expr.Literal(null, keys.get(j).type()));
            }
            copy.add(new Expr.Literal(groupingId(set), SqlType.BIGINT));
            projections.add(copy);
        }
        List<Field> expanded = new ArrayList<>(rows.fields());
        expanded.addAll(keyFields);
        expanded.add(idField());
        List<Expr> groupKeys = new ArrayList<>();
        for (int j = 0; j <= keys.size(); j++) {
            groupKeys.add(new Expr.Column(width + j, expanded.get(width + j).type()));
        }
        RelNode groups = new RelNode.Aggregate(new RelNode.Expand(rows, projections, expanded), groupKeys, aggregates, fields);
        return sets.stream().anyMatch(Set::isEmpty) ? withGrandTotal(groups, keys.size(), aggregates) : groups;
    }

    /**
     * {@code groups} with the empty set's row even when there were no input rows (no copy made its
     * group), as a GROUP BY without keys gives one, and as Hive does: its keys null, counts 0, the
     * other aggregates null. The groups are joined (FULL) with that one row on the grouping id, so
     * the row comes out only when no group has the id.
     */
    private RelNode withGrandTotal(RelNode groups, int keyCount, List<AggregateCall> aggregates) {
        long emptySet = groupingId(Set.of());
        RelNode total = new RelNode.Values(List.of(new Field(null, "grand total", SqlType.BIGINT)),
                List.<Object[]>of(new Object[] {emptySet}));
        RelNode joined = new RelNode.Join(groups, total, org.oooengine.core.sql.JoinKind.FULL, new int[] {keyCount},
                new int[] {0}, null);
        List<Field> fields = groups.fields();
        List<Expr> exprs = new ArrayList<>();
        for (int j = 0; j < keyCount; j++) {
            exprs.add(new Expr.Column(j, fields.get(j).type()));
        }
        exprs.add(coalesce(new Expr.Column(keyCount, SqlType.BIGINT), new Expr.Column(fields.size(), SqlType.BIGINT)));
        for (int i = 0; i < aggregates.size(); i++) {
            AggregateCall call = aggregates.get(i);
            Expr value = new Expr.Column(keyCount + 1 + i, call.type());
            boolean count = call.kind() == AggregateCall.Kind.COUNT || call.kind() == AggregateCall.Kind.COUNT_STAR;
            exprs.add(count ? coalesce(value, new Expr.Literal(0L, SqlType.BIGINT)) : value);
        }
        return new RelNode.Project(joined, exprs, fields);
    }

    private static Expr coalesce(Expr a, Expr b) {
        return new Expr.Call(ScalarFunction.COALESCE, List.of(a, b), a.type());
    }

    static Field idField() {
        return new Field(null, GROUPING_ID, SqlType.BIGINT);
    }

    /** Whether {@code n} is {@code GROUPING__ID} or a call of {@code grouping(...)}. */
    static boolean isGroupingFunction(ASTNode n) {
        if (n.getType() == TOK_TABLE_OR_COL) {
            return Ast.name(Ast.child(n, 0)).equals(GROUPING_ID);
        }
        return n.getType() == TOK_FUNCTION && n.getChildCount() > 0
                && Ast.name(Ast.child(n, 0)).equals("grouping");
    }

    /**
     * {@code GROUPING__ID} or {@code grouping(k1, ..., km)} over the groups, whose grouping id is
     * column {@code idColumn}: the id, or the sum of each argument's bit of it times 2^(m - i).
     */
    Expr groupingFunction(ASTNode n, ExprBinder binder, List<Expr> keys, int idColumn) {
        boolean id = n.getType() == TOK_TABLE_OR_COL;
        if (!several()) {
            throw Ast.error(SqlException.SYNTAX, (id ? "GROUPING__ID" : "grouping()")
                    + " needs GROUP BY with GROUPING SETS, ROLLUP or CUBE", n);
        }
        Expr groupingId = new Expr.Column(idColumn, SqlType.BIGINT);
        if (id) {
            return groupingId;
        }
        List<ASTNode> args = Ast.children(n).subList(1, n.getChildCount());
        if (args.isEmpty()) {
            throw Ast.error(SqlException.SYNTAX, "grouping() takes one or more GROUP BY keys", n);
        }
        Expr sum = null;
        for (int i = 0; i < args.size(); i++) {
            int j = keyIndex(args.get(i), binder, keys, "grouping()");
            Expr bit = arithmetic(ScalarFunction.MOD, shifted(groupingId, keyCount - 1 - j), 2);
            Expr term = args.size() - 1 - i == 0 ? bit : arithmetic(ScalarFunction.MULTIPLY, bit, 1L << (args.size() - 1 - i));
            sum = sum == null ? term : new Expr.Call(ScalarFunction.ADD, List.of(sum, term), SqlType.BIGINT);
        }
        return sum;
    }

    /** {@code e} divided by 2^bits, an integer division of BIGINTs (a right shift of a non-negative id). */
    private static Expr shifted(Expr e, int bits) {
        return bits == 0 ? e : arithmetic(ScalarFunction.DIVIDE, e, 1L << bits);
    }

    private static Expr arithmetic(ScalarFunction f, Expr e, long constant) {
        return new Expr.Call(f, List.of(e, new Expr.Literal(constant, SqlType.BIGINT)), SqlType.BIGINT);
    }
}

package org.oooengine.hive.sql.analyze;

import org.oooengine.core.sql.JoinKind;
import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.JoinGraph;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Subqueries in WHERE (and HAVING) become joins, so they run once rather than per row:
 * {@code [NOT] EXISTS} a semi (anti) join, {@code x [NOT] IN (subquery)} a semi (null-aware
 * anti) join on x, and a scalar subquery a join with its single row — or, when correlated, with
 * the subquery grouped by its correlation columns. A correlated subquery's conditions on the
 * outer query's columns are lifted out of it and become the join's conditions; the rest of the
 * subquery is planned like any query. Elsewhere — in the select list, several in one condition,
 * under OR or CASE — a scalar subquery becomes a column joined to the rows: crossed with its single
 * row, or left-joined with it grouped by its correlation columns; an EXISTS or IN subquery there (in
 * a condition) becomes a boolean column too, a {@link MarkJoin}, and so does a correlated NOT IN.
 */
final class SubqueryPlanner {
    private enum Kind { EXISTS, IN, SCALAR }

    /**
     * The subquery planned without its correlated conditions, and those conditions over (outer
     * row, subquery row). {@code emptyValue}: what a correlated scalar subquery is for an outer
     * row it finds no rows for, when that is not NULL (count is 0); right's last two columns are
     * then TRUE and the value, so a row the join found nothing for is told by the NULL before it.
     */
    private record Decorrelated(RelNode right, List<Expr> conditions, boolean correlated, Expr emptyValue) {
        Decorrelated(RelNode right, List<Expr> conditions, boolean correlated) {
            this(right, conditions, correlated, null);
        }

        /** The subquery's value in a row of the outer rows ({@code width} columns) joined with right. */
        Expr value(int width) {
            int last = width + right.fields().size() - 1;
            SqlType type = right.fields().get(right.fields().size() - 1).type();
            Expr v = new Expr.Column(last, type);
            if (emptyValue == null) {
                return v;
            }
            Expr unmatched = new Expr.IsNull(new Expr.Column(last - 1, SqlType.BOOLEAN), false);
            return new Expr.Case(List.of(unmatched), List.of(emptyValue), v, type);
        }
    }

    /** Rows with one more column for each scalar subquery, and the column each subquery's node stands for. */
    record ScalarValues(RelNode rows, Map<ASTNode, Expr> values) {
        /** A binder over the rows: a subquery's node reads its column; other nodes go to {@code then}. */
        ExprBinder binder(Function<ASTNode, Expr> then) {
            return new ExprBinder(new Scope(rows.fields()), n -> values.containsKey(n) ? values.get(n) : then.apply(n));
        }
    }

    private final QueryAnalyzer analyzer;

    SubqueryPlanner(QueryAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    /** {@code input} filtered by one conjunct that holds a subquery; the result has input's columns. */
    RelNode apply(RelNode input, ASTNode conjunct) {
        boolean negated = conjunct.getType() == KW_NOT && Ast.child(conjunct, 0).getType() == TOK_SUBQUERY_EXPR;
        ASTNode sub = negated ? Ast.child(conjunct, 0) : conjunct;
        if (sub.getType() == TOK_SUBQUERY_EXPR) {
            ASTNode op = Ast.child(sub, 0);
            int kind = op.getChildCount() == 0 ? -1 : Ast.child(op, 0).getType();
            if (kind == KW_EXISTS) {
                Decorrelated d = decorrelate(input, Ast.child(sub, 1), Kind.EXISTS, sub);
                return JoinGraph.join(input, d.right(), negated ? JoinKind.ANTI : JoinKind.SEMI,
                        d.conditions());
            }
            if (kind == KW_IN) {
                RelNode joined = in(input, sub, negated);
                if (joined != null) {
                    return joined;
                }
            }
        }
        List<ASTNode> found = subqueries(conjunct);
        if (found.size() == 1 && isScalar(found.get(0))) {
            return scalarComparison(input, conjunct, found.get(0));
        }
        // several subqueries, or one under OR, NOT or CASE: each joined as a column, then the condition
        ScalarValues s = values(input, List.of(conjunct), n -> null);
        return keepColumns(new RelNode.Filter(s.rows(), s.binder(n -> null).condition(conjunct)), input.fields().size());
    }

    /**
     * {@code rows} with a column for each scalar subquery in {@code exprs} (not within another
     * subquery): an uncorrelated one crossed with its single row; a correlated one left-joined
     * with it grouped by its correlation columns, so a row it finds nothing for reads NULL.
     */
    ScalarValues scalarValues(RelNode rows, List<ASTNode> exprs) {
        return values(rows, exprs, null);
    }

    /**
     * {@link #scalarValues}, and when {@code exprs} are conditions ({@code grouping} not null: it
     * binds what the rows' own columns do not, as in HAVING), a mark column for each EXISTS and
     * IN subquery ({@link MarkJoin}).
     */
    private ScalarValues values(RelNode rows, List<ASTNode> exprs, Function<ASTNode, Expr> grouping) {
        Map<ASTNode, Expr> values = new IdentityHashMap<>();
        for (ASTNode e : exprs) {
            Set<ASTNode> onlyAndOr = Collections.newSetFromMap(new IdentityHashMap<>());
            underAndOrOnly(e, onlyAndOr);
            for (ASTNode sub : subqueries(e)) {
                if (!isScalar(sub)) {
                    if (grouping == null) {
                        throw Ast.notSupported("an EXISTS or IN subquery as a value (it is a condition of WHERE or HAVING)", sub);
                    }
                    int width = rows.fields().size();
                    rows = mark(rows, sub, !onlyAndOr.contains(sub), grouping, "$subquery" + (values.size() + 1));
                    values.put(sub, new Expr.Column(width, SqlType.BOOLEAN));
                    continue;
                }
                Decorrelated d = decorrelate(rows, Ast.child(sub, 1), Kind.SCALAR, sub);
                List<Field> named = new ArrayList<>(d.right().fields());
                Field last = named.remove(named.size() - 1);
                named.add(new Field(null, "$subquery" + (values.size() + 1), last.type())); // for EXPLAIN
                RelNode joined = JoinGraph.join(rows, rename(d.right(), named),
                        d.correlated() ? JoinKind.LEFT : JoinKind.CROSS, d.conditions());
                int width = rows.fields().size();
                Field value = joined.fields().get(joined.fields().size() - 1);
                List<Expr> columns = new ArrayList<>();
                List<Field> fields = new ArrayList<>(rows.fields());
                for (int i = 0; i < width; i++) {
                    columns.add(new Expr.Column(i, fields.get(i).type()));
                }
                columns.add(d.value(width));
                fields.add(value); // no expression names it: its node does
                rows = new RelNode.Project(joined, columns, fields);
                values.put(sub, new Expr.Column(width, value.type()));
            }
        }
        return new ScalarValues(rows, values);
    }

    private static boolean isScalar(ASTNode sub) {
        return Ast.child(sub, 0).getChildCount() == 0;
    }

    /** The subquery nodes {@code n} reaches through AND and OR alone, where an unknown mark filters as false does. */
    private static void underAndOrOnly(ASTNode n, Set<ASTNode> out) {
        if (n.getType() == TOK_SUBQUERY_EXPR) {
            out.add(n);
        } else if (n.getType() == KW_AND || n.getType() == KW_OR) {
            Ast.children(n).forEach(c -> underAndOrOnly(c, out));
        }
    }

    /** {@code rows} with one more column: the value of the EXISTS or IN subquery {@code sub}. */
    private RelNode mark(RelNode rows, ASTNode sub, boolean threeValued, Function<ASTNode, Expr> grouping, String name) {
        ASTNode op = Ast.child(sub, 0);
        int kind = Ast.child(op, 0).getType();
        if (kind == KW_EXISTS) {
            Decorrelated d = decorrelate(rows, Ast.child(sub, 1), Kind.EXISTS, sub);
            return d.correlated() ? MarkJoin.exists(rows, d.right(), d.conditions(), name, sub)
                    : MarkJoin.nonEmpty(rows, d.right(), name);
        }
        if (kind != KW_IN) {
            throw Ast.notSupported("this comparison with a subquery", sub);
        }
        Decorrelated d = decorrelate(rows, Ast.child(sub, 1), Kind.IN, sub);
        int width = rows.fields().size();
        int value = d.right().fields().size() - 1;
        Expr lhs = new ExprBinder(new Scope(rows.fields()), grouping).bind(Ast.child(sub, 2));
        Expr tested = ExprBinder.equal(lhs, new Expr.Column(width + value, d.right().fields().get(value).type()), sub);
        return MarkJoin.in(rows, d.right(), d.conditions(), tested, threeValued, name, sub);
    }

    /** x [NOT] IN (subquery) as a semi or null-aware anti join; null for a correlated NOT IN, which takes a mark. */
    private RelNode in(RelNode input, ASTNode sub, boolean negated) {
        Decorrelated d = decorrelate(input, Ast.child(sub, 1), Kind.IN, sub);
        if (negated && d.correlated()) {
            return null; // the anti join would treat each key's NULLs alike: a mark counts them per key
        }
        int width = input.fields().size();
        int value = d.right().fields().size() - 1;
        Expr lhs = new ExprBinder(new Scope(input.fields())).bind(Ast.child(sub, 2));
        List<Expr> conditions = new ArrayList<>(d.conditions());
        conditions.add(ExprBinder.equal(lhs, new Expr.Column(width + value, d.right().fields().get(value).type()), sub));
        return JoinGraph.join(input, d.right(), negated ? JoinKind.ANTI_NULL_AWARE : JoinKind.SEMI,
                conditions);
    }

    /** A comparison with a scalar subquery: joined to its value, filtered, then back to input's columns. */
    private RelNode scalarComparison(RelNode input, ASTNode conjunct, ASTNode sub) {
        Decorrelated d = decorrelate(input, Ast.child(sub, 1), Kind.SCALAR, sub);
        // a row the subquery finds nothing for drops out, unless its value then is not NULL (count)
        JoinKind kind = !d.correlated() ? JoinKind.CROSS : d.emptyValue() == null ? JoinKind.INNER : JoinKind.LEFT;
        RelNode joined = JoinGraph.join(input, d.right(), kind, d.conditions());
        int width = input.fields().size();
        Expr value = d.value(width);
        // The condition is the outer query's: its names are the input's, never the subquery's columns
        // (in "d_week_seq = (SELECT d_week_seq FROM date_dim ...)" both are d_week_seq).
        Expr condition = new ExprBinder(new Scope(joined.fields().subList(0, width)),
                n -> n == sub ? value : null).condition(conjunct);
        return keepColumns(new RelNode.Filter(joined, condition), width);
    }

    /** HAVING with scalar subqueries: the aggregated rows joined to their values, then filtered. */
    RelNode applyToGroups(RelNode groups, ASTNode conjunct, Function<ASTNode, Expr> grouping) {
        ScalarValues s = values(groups, List.of(conjunct), grouping);
        return keepColumns(new RelNode.Filter(s.rows(), s.binder(grouping).condition(conjunct)), groups.fields().size());
    }

    /** The subquery expressions in {@code n}, not looking into them. */
    static List<ASTNode> subqueries(ASTNode n) {
        List<ASTNode> found = new ArrayList<>();
        collectSubqueries(n, found);
        return found;
    }

    private static void collectSubqueries(ASTNode n, List<ASTNode> out) {
        if (n.getType() == TOK_SUBQUERY_EXPR) {
            out.add(n);
            return;
        }
        Ast.children(n).forEach(c -> collectSubqueries(c, out));
    }

    private static RelNode keepColumns(RelNode rows, int width) {
        List<Expr> columns = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            columns.add(new Expr.Column(i, rows.fields().get(i).type()));
        }
        return new RelNode.Project(rows, columns, rows.fields().subList(0, width));
    }

    private static RelNode singleColumn(RelNode plan, ASTNode at) {
        if (plan.fields().size() != 1) {
            throw Ast.error(SqlException.SYNTAX, "the subquery must return one column, not " + plan.fields().size(), at);
        }
        return plan;
    }

    /**
     * The subquery with its conditions on outer columns lifted out. Uncorrelated: planned as it is.
     * Correlated: its select list becomes the inner columns those conditions read (then, for IN
     * and scalar subqueries, its own select item); a scalar subquery is grouped by them.
     */
    private Decorrelated decorrelate(RelNode input, ASTNode query, Kind kind, ASTNode at) {
        if (kind == Kind.SCALAR && query.getType() == TOK_QUERY && Ast.find(query, TOK_FROM) == null) {
            return new Decorrelated(new RelNode.SingleRow(singleColumn(analyzer.query(query), at)), List.of(), false);
        }
        if (query.getType() != TOK_QUERY || Ast.find(query, TOK_FROM) == null || Ast.find(query, TOK_CTE) != null) {
            throw Ast.notSupported("this form of subquery", at);
        }
        ASTNode insert = Ast.find(query, TOK_INSERT);
        ASTNode where = Ast.find(insert, TOK_WHERE);
        int width = input.fields().size();
        List<Field> innerFields = analyzer.fromOnly(Ast.child(Ast.find(query, TOK_FROM), 0)).fields();
        List<Field> both = new ArrayList<>(input.fields());
        both.addAll(innerFields);
        List<ASTNode> local = new ArrayList<>();
        List<ASTNode> lifted = new ArrayList<>();
        TreeSet<Integer> innerColumns = new TreeSet<>();
        for (ASTNode c : where == null ? List.<ASTNode>of() : CommonTerms.outOfOr(Ast.conjuncts(Ast.child(where, 0)))) {
            if (Ast.containsSubquery(c) || bindsAlone(c, innerFields)) {
                local.add(c);
                continue;
            }
            Expr e = new ExprBinder(new Scope(both, width)).condition(c);
            lifted.add(c);
            Exprs.columns(e).stream().filter(i -> i >= width).forEach(i -> innerColumns.add(i - width));
        }
        if (lifted.isEmpty()) {
            RelNode plan = analyzer.query(query);
            if (kind != Kind.EXISTS) {
                plan = singleColumn(plan, at);
            }
            return new Decorrelated(kind == Kind.SCALAR ? new RelNode.SingleRow(plan) : plan, List.of(), false);
        }
        boolean aggregates = GroupingSets.clause(insert) != null || Ast.find(insert, TOK_HAVING) != null
                || Ast.find(insert, TOK_LIMIT) != null || Ast.find(insert, TOK_SELECTDI) != null;
        if (aggregates) {
            throw Ast.notSupported("a correlated subquery with GROUP BY, HAVING, DISTINCT or LIMIT", at);
        }
        ASTNode selectList = Ast.find(insert, TOK_SELECT);
        if (kind != Kind.SCALAR && Ast.children(selectList).stream().anyMatch(SubqueryPlanner::aggregates)) {
            if (kind == Kind.IN) {
                throw Ast.notSupported("an IN subquery with a correlated condition and an aggregate", at);
            }
            // aggregated without GROUP BY, the subquery is one row whatever its conditions find: EXISTS is true
            return new Decorrelated(new RelNode.Values(List.of(), List.<Object[]>of(new Object[0])), List.of(), false);
        }
        List<ASTNode> select = new ArrayList<>();
        List<ASTNode> keys = new ArrayList<>();
        for (int i : innerColumns) {
            Field f = innerFields.get(i);
            select.add(Ast.node(TOK_SELEXPR, "TOK_SELEXPR", List.of(columnRef(f))));
            keys.add(columnRef(f));
        }
        if (kind != Kind.EXISTS) {
            if (selectList.getChildCount() != 1) {
                throw Ast.error(SqlException.SYNTAX, "the subquery must return one column", at);
            }
            select.add(Ast.child(selectList, 0));
        }
        List<ASTNode> insertChildren = new ArrayList<>();
        insertChildren.add(Ast.find(insert, TOK_DESTINATION));
        insertChildren.add(Ast.node(TOK_SELECT, "TOK_SELECT", select));
        if (!local.isEmpty()) {
            insertChildren.add(Ast.node(TOK_WHERE, "TOK_WHERE", List.of(and(local))));
        }
        if (kind == Kind.SCALAR) {
            insertChildren.add(Ast.node(TOK_GROUPBY, "TOK_GROUPBY", keys));
        }
        ASTNode rewritten = Ast.node(TOK_QUERY, "TOK_QUERY", List.of(Ast.find(query, TOK_FROM),
                Ast.node(TOK_INSERT, "TOK_INSERT", insertChildren)));
        RelNode planned = analyzer.query(rewritten);
        Expr emptyValue = null;
        if (kind == Kind.SCALAR) {
            SqlType type = planned.fields().get(planned.fields().size() - 1).type();
            emptyValue = emptyGroupValue(Ast.child(Ast.child(selectList, 0), 0), innerFields, type, at);
            if (emptyValue != null) {
                planned = withMatchColumn(planned);
            }
        }
        // the lifted conditions name the inner columns as the subquery did: keep their qualifiers
        List<Field> named = new ArrayList<>();
        for (int i : innerColumns) {
            named.add(innerFields.get(i));
        }
        for (int i = named.size(); i < planned.fields().size(); i++) {
            named.add(new Field(null, "$subquery", planned.fields().get(i).type()));
        }
        RelNode right = rename(planned, named);
        List<Field> outerAndRight = new ArrayList<>(input.fields());
        outerAndRight.addAll(right.fields());
        List<Expr> conditions = new ArrayList<>();
        for (ASTNode c : lifted) {
            Expr e = new ExprBinder(new Scope(outerAndRight, width)).condition(c);
            if (kind == Kind.SCALAR && !isEquality(e)) {
                throw Ast.notSupported("a correlated scalar subquery whose condition on the outer query is not an equality", c);
            }
            conditions.add(e);
        }
        return new Decorrelated(right, conditions, true, emptyValue);
    }

    /**
     * What a scalar subquery's select item is over no rows, when not NULL: each count 0, each
     * other aggregate NULL ({@code count(*)} is 0, {@code coalesce(sum(x), 0)} is 0). A join
     * with the groups has no row for an outer row the subquery finds nothing for, so the value
     * that row reads comes from here (the "count bug" of decorrelation).
     */
    private static Expr emptyGroupValue(ASTNode item, List<Field> innerFields, SqlType type, ASTNode at) {
        Function<ASTNode, Expr> overNoRows = n -> {
            if (!ExprBinder.isAggregate(n) || WindowPlanner.isWindowCall(n)) {
                return null;
            }
            if (Ast.name(Ast.child(n, 0)).equals("count")) {
                return new Expr.Literal(0L, SqlType.BIGINT);
            }
            SqlType t;
            try {
                t = new ExprBinder(new Scope(innerFields)).aggregate(n).type();
            } catch (SqlException e) {
                t = SqlType.VOID;
            }
            return new Expr.Literal(null, t);
        };
        Expr e;
        try {
            e = new ExprBinder(new Scope(List.of()), overNoRows).bind(item);
        } catch (SqlException ex) {
            if (SqlException.UNKNOWN_COLUMN.equals(ex.sqlState()) || SqlException.UNKNOWN_TABLE.equals(ex.sqlState())) {
                throw Ast.notSupported("a correlated scalar subquery whose value reads a column outside an aggregate", at);
            }
            throw ex;
        }
        Object v = ExprBinder.cast(e, type).eval(new Object[0]);
        return v == null ? null : new Expr.Literal(v, type);
    }

    /** {@code plan}'s columns with a TRUE column before the last one. */
    private static RelNode withMatchColumn(RelNode plan) {
        List<Expr> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        int last = plan.fields().size() - 1;
        for (int i = 0; i <= last; i++) {
            if (i == last) {
                columns.add(new Expr.Literal(true, SqlType.BOOLEAN));
                fields.add(new Field(null, "$match", SqlType.BOOLEAN));
            }
            columns.add(new Expr.Column(i, plan.fields().get(i).type()));
            fields.add(plan.fields().get(i));
        }
        return new RelNode.Project(plan, columns, fields);
    }


    private static boolean bindsAlone(ASTNode condition, List<Field> fields) {
        try {
            new ExprBinder(new Scope(fields)).condition(condition);
            return true;
        } catch (SqlException e) {
            if (SqlException.UNKNOWN_COLUMN.equals(e.sqlState()) || SqlException.UNKNOWN_TABLE.equals(e.sqlState())) {
                return false;
            }
            throw e;
        }
    }

    /** Whether {@code n} calls an aggregate of its own query (not one of a subquery's, nor a window function). */
    private static boolean aggregates(ASTNode n) {
        if (n.getType() == TOK_SUBQUERY_EXPR) {
            return false;
        }
        if (ExprBinder.isAggregate(n) && !WindowPlanner.isWindowCall(n)) {
            return true;
        }
        return Ast.children(n).stream().anyMatch(SubqueryPlanner::aggregates);
    }

    private static boolean isEquality(Expr e) {
        return e instanceof Expr.Call c && c.function() == ScalarFunction.EQ;
    }

    private static ASTNode and(List<ASTNode> terms) {
        ASTNode out = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            out = Ast.node(KW_AND, "and", List.of(out, terms.get(i)));
        }
        return out;
    }

    private static ASTNode columnRef(Field f) {
        ASTNode name = Ast.node(Identifier, f.name(), List.of());
        if (f.qualifier() == null) {
            return Ast.node(TOK_TABLE_OR_COL, "TOK_TABLE_OR_COL", List.of(name));
        }
        ASTNode q = Ast.node(TOK_TABLE_OR_COL, "TOK_TABLE_OR_COL", List.of(Ast.node(Identifier, f.qualifier(), List.of())));
        return Ast.node(DOT, ".", List.of(q, name));
    }

    private static RelNode rename(RelNode plan, List<Field> fields) {
        List<Expr> columns = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(new Expr.Column(i, fields.get(i).type()));
        }
        return new RelNode.Project(plan, columns, fields);
    }
}

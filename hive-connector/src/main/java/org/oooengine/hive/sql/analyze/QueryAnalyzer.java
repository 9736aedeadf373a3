package org.oooengine.hive.sql.analyze;

import org.oooengine.core.sql.JoinKind;
import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.fragment.SortKey;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.JoinGraph;
import org.oooengine.optimizer.rel.RelNode;

/**
 * A SELECT statement to a plan: FROM (tables, subqueries, common table expressions, inner and
 * outer joins, TABLESAMPLE (n ROWS)), WHERE, GROUP BY with aggregates (and grouping sets:
 * {@link GroupingSets}), HAVING, the select list (scalar subqueries in it: {@link SubqueryPlanner};
 * window functions: {@link WindowPlanner}), DISTINCT, ORDER BY (SORT BY, CLUSTER BY and DISTRIBUTE BY:
 * {@link ResultOrder}) and LIMIT; UNION, INTERSECT and EXCEPT ({@link SetOperations}). Joins and WHERE
 * are planned together ({@link FromClause}, {@link JoinPlanner}): each conjunct is applied as early as its
 * tables allow, below an outer join where that keeps its meaning. Constructs outside this list are refused
 * by name.
 */
public final class QueryAnalyzer {
    private final Catalog catalog;
    private final String database;
    private final Map<String, ASTNode> commonTables;

    public QueryAnalyzer(Catalog catalog, String database) {
        this(catalog, database, Map.of());
    }

    private QueryAnalyzer(Catalog catalog, String database, Map<String, ASTNode> commonTables) {
        this.catalog = catalog;
        this.database = database;
        this.commonTables = commonTables;
    }

    /** The plan of a {@code TOK_QUERY} or a set operation; its fields are the select list's columns. */
    public RelNode query(ASTNode query) {
        if (query.getType() == TOK_UNIONALL || query.getType() == TOK_UNIONDISTINCT) {
            return union(query);
        }
        if (SetOperations.isIntersectOrExcept(query)) {
            return SetOperations.plan(query, this::query);
        }
        if (query.getType() != TOK_QUERY) {
            throw Ast.notSupported(query.getText(), query);
        }
        ASTNode cte = Ast.find(query, TOK_CTE);
        if (cte != null) {
            Map<String, ASTNode> visible = new HashMap<>(commonTables);
            for (ASTNode sub : Ast.children(cte)) {
                visible.put(Ast.name(Ast.child(sub, 1)), Ast.child(sub, 0));
            }
            return new QueryAnalyzer(catalog, database, visible).body(query);
        }
        return body(query);
    }

    /**
     * UNION ALL of the branches (UNION: their distinct rows), columns named as the first branch
     * names them, each brought to the type all branches share.
     */
    private RelNode union(ASTNode n) {
        List<RelNode> branches = new ArrayList<>();
        for (ASTNode c : unionOperands(n)) {
            branches.add(query(c));
        }
        List<RelNode> cast = SetOperations.aligned(branches, "UNION", n);
        List<Field> fields = cast.get(0).fields();
        int width = fields.size();
        RelNode all = new RelNode.Union(cast, fields);
        if (n.getType() == TOK_UNIONALL) {
            return all;
        }
        List<Expr> keys = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            keys.add(new Expr.Column(i, fields.get(i).type()));
        }
        return new RelNode.Aggregate(all, keys, List.of(), fields);
    }

    /**
     * The operands of a UNION, those of the UNIONs nested in it taken in, so that a chain of them
     * (the parser nests {@code a UNION ALL b UNION ALL c} to the left) is one union of all its
     * branches, not a plan as deep as the chain is long (300 branches overflowed the stack of the
     * thread that ran it): UNION ALL is associative, and under a UNION DISTINCT so is either kind.
     */
    private static List<ASTNode> unionOperands(ASTNode n) {
        List<ASTNode> out = new ArrayList<>();
        java.util.Deque<ASTNode> pending = new java.util.ArrayDeque<>(Ast.children(n));
        while (!pending.isEmpty()) {
            ASTNode c = pending.pollFirst();
            if (c.getType() == TOK_UNIONALL || c.getType() == TOK_UNIONDISTINCT && n.getType() == TOK_UNIONDISTINCT) {
                List<ASTNode> inner = Ast.children(c);
                for (int i = inner.size() - 1; i >= 0; i--) {
                    pending.addFirst(inner.get(i));
                }
            } else {
                out.add(c);
            }
        }
        return out;
    }

    private RelNode body(ASTNode query) {
        ASTNode insert = Ast.find(query, TOK_INSERT);
        checkSupported(insert);
        ASTNode from = Ast.find(query, TOK_FROM);
        ASTNode where = Ast.find(insert, TOK_WHERE);
        List<ASTNode> conditions = new ArrayList<>();
        List<ASTNode> withSubqueries = new ArrayList<>();
        if (where != null) {
            for (ASTNode c : Ast.conjuncts(Ast.child(where, 0))) {
                (Ast.containsSubquery(c) ? withSubqueries : conditions).add(c);
            }
        }
        RelNode input = from == null ? oneRow(conditions) : fromClause(Ast.child(from, 0), conditions);
        SubqueryPlanner subqueries = new SubqueryPlanner(this);
        for (ASTNode c : withSubqueries) {
            input = subqueries.apply(input, c);
        }
        ASTNode select = Ast.find(insert, TOK_SELECT);
        ASTNode generatorItem = LateralViews.selectCall(select != null ? select : Ast.find(insert, TOK_SELECTDI));
        if (generatorItem != null) {
            return LateralViews.selectForm(input, insert, generatorItem);
        }
        return new SelectAnalyzer(input, insert, subqueries).plan();
    }

    /** A FROM clause planned without conditions: what a correlated subquery's columns are. */
    RelNode fromOnly(ASTNode rel) {
        return fromClause(rel, List.of());
    }

    private static void checkSupported(ASTNode insert) {
        ASTNode dest = Ast.child(Ast.find(insert, TOK_DESTINATION), 0);
        if (dest.getType() != TOK_DIR || Ast.child(dest, 0).getType() != TOK_TMP_FILE) {
            throw Ast.notSupported("INSERT OVERWRITE", dest);
        }
        ResultOrder.checkClauses(insert);
        for (ASTNode c : Ast.children(insert)) {
            String construct = switch (c.getType()) {
                case TOK_LATERAL_VIEW -> "LATERAL VIEW";
                case TOK_QUALIFY -> "QUALIFY";
                default -> null;
            };
            if (construct != null) {
                throw Ast.notSupported(construct, c);
            }
        }
    }

    private RelNode oneRow(List<ASTNode> conditions) {
        RelNode values = new RelNode.Values(List.of(), List.<Object[]>of(new Object[0]));
        ExprBinder binder = new ExprBinder(new Scope(List.of()));
        return conditions.isEmpty() ? values
                : new RelNode.Filter(values, Exprs.and(conditions.stream().map(binder::condition).toList()));
    }

    /** The FROM clause with the WHERE conditions placed into its joins ({@link FromClause}). */
    private RelNode fromClause(ASTNode rel, List<ASTNode> conditions) {
        return new FromClause(this::relation).plan(rel, conditions);
    }

    private RelNode relation(ASTNode rel) {
        return switch (rel.getType()) {
            case TOK_TABREF -> tableReference(rel);
            case TOK_SUBQUERY -> qualify(query(Ast.child(rel, 0)), Ast.name(Ast.child(rel, 1)));
            case TOK_LEFTSEMIJOIN -> throw Ast.notSupported("LEFT SEMI JOIN", rel);
            case TOK_LATERAL_VIEW, TOK_LATERAL_VIEW_OUTER -> LateralViews.plan(rel, this::relation);
            default -> throw Ast.notSupported("FROM item '" + rel.getText() + "'", rel);
        };
    }

    private RelNode tableReference(ASTNode ref) {
        ASTNode tabName = Ast.child(ref, 0);
        String db = tabName.getChildCount() > 1 ? Ast.name(Ast.child(tabName, 0)) : null;
        String name = Ast.name(Ast.child(tabName, tabName.getChildCount() - 1));
        ASTNode last = Ast.child(ref, ref.getChildCount() - 1);
        String alias = ref.getChildCount() > 1 && !isSample(last) ? Ast.name(last) : name;
        if (db == null && commonTables.containsKey(name)) {
            return sampled(qualify(query(commonTables.get(name)), alias), ref);
        }
        String database = db == null ? this.database : db;
        Optional<CatalogView> view = catalog.view(database, name);
        if (view.isPresent()) {
            return sampled(qualify(Views.expand(catalog, view.get(), tabName), alias), ref);
        }
        TableInfo table = catalog.table(database, name).orElseThrow(() -> Ast.error(SqlException.UNKNOWN_TABLE,
                "table not found: " + database + "." + name, tabName));
        List<Field> fields = table.columns().stream().map(c -> new Field(alias, c.name(), c.type())).toList();
        return sampled(new RelNode.Scan(table, alias, fields, null), ref);
    }

    private static boolean isSample(ASTNode n) {
        return n.getType() == TOK_TABLESPLITSAMPLE || n.getType() == TOK_TABLEBUCKETSAMPLE;
    }

    /**
     * {@code TABLESAMPLE (n ROWS)}: at most n rows of the table, before any condition applies.
     * (Hive takes n rows from each input split; the cluster has no splits to speak of, so from
     * the table.) Samples by bucket, percentage or size are Hive's choice of files, refused.
     */
    private static RelNode sampled(RelNode rows, ASTNode ref) {
        ASTNode sample = Ast.children(ref).stream().filter(QueryAnalyzer::isSample).findFirst().orElse(null);
        if (sample == null) {
            return rows;
        }
        if (sample.getType() == TOK_TABLEBUCKETSAMPLE) {
            throw Ast.notSupported("TABLESAMPLE (BUCKET x OUT OF y)", sample);
        }
        ASTNode kind = Ast.child(sample, 0);
        return switch (kind.getType()) {
            case TOK_ROWCOUNT -> new RelNode.Limit(rows, 0, Long.parseLong(Ast.child(sample, 1).getText()));
            case TOK_PERCENT -> throw Ast.notSupported("TABLESAMPLE (n PERCENT) (only TABLESAMPLE (n ROWS))", sample);
            default -> throw Ast.notSupported("TABLESAMPLE (" + Ast.child(sample, 1).getText()
                    + ") (only TABLESAMPLE (n ROWS))", sample);
        };
    }

    /** A subquery's columns under its alias. */
    private static RelNode qualify(RelNode sub, String alias) {
        List<Field> fields = sub.fields().stream().map(f -> f.withQualifier(alias)).toList();
        List<Expr> columns = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(new Expr.Column(i, fields.get(i).type()));
        }
        return new RelNode.Project(sub, columns, fields);
    }

    /** SELECT, GROUP BY, HAVING, DISTINCT, ORDER BY and LIMIT over the FROM clause's rows. */
    private static final class SelectAnalyzer {
        private final RelNode input;
        private final ASTNode insert;
        private final ASTNode select;
        private final List<ASTNode> orderKeys;
        private final SubqueryPlanner subqueries;

        SelectAnalyzer(RelNode input, ASTNode insert, SubqueryPlanner subqueries) {
            this.input = input;
            this.insert = insert;
            this.subqueries = subqueries;
            ASTNode s = Ast.find(insert, TOK_SELECT);
            this.select = s != null ? s : Ast.find(insert, TOK_SELECTDI);
            this.orderKeys = ResultOrder.sortKeys(insert);
        }

        RelNode plan() {
            ASTNode groupBy = GroupingSets.clause(insert);
            ASTNode having = withSelectAliases(Ast.find(insert, TOK_HAVING));
            List<ASTNode> aggregateSites = new ArrayList<>(Ast.children(select));
            if (having != null) {
                aggregateSites.add(having);
            }
            aggregateSites.addAll(orderKeys);
            List<ASTNode> aggregateCalls = new ArrayList<>();
            aggregateSites.forEach(n -> findAggregates(n, aggregateCalls));

            RelNode rows = input;
            ExprBinder binder = new ExprBinder(new Scope(input.fields()));
            Function<ASTNode, Expr> hook = n -> null;
            IntFunction<Expr> fromColumn = i -> new Expr.Column(i, input.fields().get(i).type());
            if (groupBy != null || !aggregateCalls.isEmpty()) {
                Grouping g = new Grouping(input, binder, groupBy, aggregateCalls);
                rows = g.node();
                binder = g.binder();
                hook = g::afterGrouping;
                fromColumn = g::fromColumn;
                if (having != null) {
                    List<Expr> plain = new ArrayList<>();
                    for (ASTNode c : Ast.conjuncts(Ast.child(having, 0))) {
                        if (Ast.containsSubquery(c)) {
                            rows = subqueries.applyToGroups(rows, c, g::afterGrouping);
                        } else {
                            plain.add(binder.condition(c));
                        }
                    }
                    if (!plain.isEmpty()) {
                        rows = new RelNode.Filter(rows, Exprs.and(plain));
                    }
                }
            } else if (having != null) {
                throw Ast.error(SqlException.SYNTAX, "HAVING without GROUP BY or aggregates", having);
            }
            List<ASTNode> windowCalls = new ArrayList<>();
            Ast.children(select).forEach(n -> WindowPlanner.collect(n, windowCalls));
            orderKeys.forEach(n -> WindowPlanner.collect(n, windowCalls));
            if (!windowCalls.isEmpty()) { // over the groups that HAVING kept, before DISTINCT, ORDER BY and LIMIT
                WindowPlanner.Windowed windows = WindowPlanner.plan(rows, binder, windowCalls, insert);
                rows = windows.rows();
                hook = windows.hook(hook);
            }
            return selectList(rows, hook, fromColumn);
        }

        /**
         * HAVING with the select list's aliases it names replaced by their expressions, as Hive
         * reads them ({@code SELECT k, count(*) AS n ... HAVING n > 1}); a name the FROM rows have
         * stays their column.
         */
        private ASTNode withSelectAliases(ASTNode having) {
            if (having == null) {
                return null;
            }
            Map<String, ASTNode> aliases = new HashMap<>();
            for (ASTNode item : Ast.children(select)) {
                if (item.getChildCount() > 1 && item.getType() == TOK_SELEXPR) {
                    String alias = Ast.name(Ast.child(item, 1));
                    if (input.fields().stream().noneMatch(f -> f.name().equals(alias))) {
                        aliases.put(alias, Ast.child(item, 0));
                    }
                }
            }
            return aliases.isEmpty() ? having : replaceAliases(Ast.copy(having), aliases);
        }

        private static ASTNode replaceAliases(ASTNode n, Map<String, ASTNode> aliases) {
            if (n.getType() == TOK_TABLE_OR_COL && aliases.containsKey(Ast.name(Ast.child(n, 0)))) {
                return Ast.copy(aliases.get(Ast.name(Ast.child(n, 0))));
            }
            if (n.getType() == TOK_SUBQUERY_EXPR) {
                return n; // its names are its own
            }
            for (int i = 0; i < n.getChildCount(); i++) {
                ASTNode c = Ast.child(n, i);
                ASTNode replaced = replaceAliases(c, aliases);
                if (replaced != c) {
                    n.setChild(i, replaced);
                }
            }
            return n;
        }

        private static void findAggregates(ASTNode n, List<ASTNode> out) {
            if (n.getType() == TOK_SUBQUERY_EXPR) {
                return; // its aggregates are its own
            }
            if (WindowPlanner.isWindowCall(n)) { // not itself an aggregate, but its arguments and keys may hold some
                Ast.children(n).subList(1, n.getChildCount()).forEach(c -> findAggregates(c, out));
                return;
            }
            if (ExprBinder.isAggregate(n)) {
                out.add(n);
                return;
            }
            Ast.children(n).forEach(c -> findAggregates(c, out));
        }

        /**
         * The select list over {@code rows} (the FROM rows, or the groups), its scalar subqueries
         * joined as columns first; {@code fromColumn} is a FROM column as the rows give it, for *.
         */
        private RelNode selectList(RelNode rows, Function<ASTNode, Expr> hook, IntFunction<Expr> fromColumn) {
            SubqueryPlanner.ScalarValues scalars = subqueries.scalarValues(rows, Ast.children(select));
            rows = scalars.rows();
            ExprBinder binder = scalars.binder(hook);
            List<Expr> exprs = new ArrayList<>();
            List<Field> fields = new ArrayList<>();
            for (ASTNode item : Ast.children(select)) {
                ASTNode e = Ast.child(item, 0);
                if (e.getType() == TOK_ALLCOLREF || e.getType() == TOK_SETCOLREF) {
                    expandStar(e, input.fields(), fromColumn, exprs, fields);
                    continue;
                }
                Expr bound = binder.bind(e);
                if (bound.type().kind() == SqlType.Kind.INTERVAL) {
                    throw Ast.notSupported("an interval as a result column", e);
                }
                exprs.add(bound);
                fields.add(new Field(null, itemName(item, fields.size()), bound.type()));
            }
            int visible = exprs.size();
            RelNode out;
            List<SortKey> sort = new ArrayList<>();
            if (select.getType() == TOK_SELECTDI) {
                out = distinct(new RelNode.Project(rows, exprs, fields));
                for (ASTNode key : orderKeys) {
                    sort.add(sortKey(key, outputColumn(key, fields, exprs, binder, null)));
                }
            } else {
                for (ASTNode key : orderKeys) {
                    sort.add(sortKey(key, outputColumn(key, fields, exprs, binder, exprs)));
                }
                List<Field> all = new ArrayList<>(fields);
                for (int i = fields.size(); i < exprs.size(); i++) {
                    all.add(new Field(null, "_o" + i, exprs.get(i).type()));
                }
                out = new RelNode.Project(rows, exprs, all);
            }
            for (ASTNode key : ResultOrder.distributeKeys(insert)) {
                // only bound, so a key naming no column is an error: partitioning the rows changes no result
                outputColumn(key, fields, exprs, binder, new ArrayList<>(exprs));
            }
            if (!sort.isEmpty()) {
                out = new RelNode.Sort(out, sort);
            }
            ASTNode limit = Ast.find(insert, TOK_LIMIT);
            if (limit != null) {
                long offset = limit.getChildCount() > 1 ? Long.parseLong(Ast.child(limit, 0).getText()) : 0;
                long count = Long.parseLong(Ast.child(limit, limit.getChildCount() - 1).getText());
                out = new RelNode.Limit(out, offset, count);
            }
            if (exprs.size() > visible) {
                List<Expr> keep = new ArrayList<>();
                for (int i = 0; i < visible; i++) {
                    keep.add(new Expr.Column(i, fields.get(i).type()));
                }
                out = new RelNode.Project(out, keep, fields);
            }
            return out;
        }

        /** {@code *} or {@code t.*}: the FROM clause's columns (with GROUP BY, each must be a grouping key). */
        private static void expandStar(ASTNode star, List<Field> from, IntFunction<Expr> fromColumn,
                                       List<Expr> exprs, List<Field> fields) {
            String qualifier = star.getType() == TOK_ALLCOLREF && star.getChildCount() > 0
                    ? Ast.name(Ast.child(Ast.child(star, 0), 0)) : null;
            boolean any = false;
            for (int i = 0; i < from.size(); i++) {
                Field f = from.get(i);
                if (qualifier == null || qualifier.equals(f.qualifier())) {
                    Expr column = fromColumn.apply(i);
                    if (column == null) {
                        throw Ast.error(SqlException.SYNTAX, "column '" + f.name() + "' of * must be in GROUP BY", star);
                    }
                    exprs.add(column);
                    fields.add(new Field(null, f.name(), f.type()));
                    any = true;
                }
            }
            if (!any) {
                throw Ast.error(SqlException.UNKNOWN_TABLE, "unknown table or alias '" + qualifier + "'", star);
            }
        }

        /** The alias, a column's own name, or Hive's {@code _c<position>}. */
        private static String itemName(ASTNode item, int position) {
            if (item.getChildCount() > 1) {
                return Ast.name(Ast.child(item, 1));
            }
            ASTNode e = Ast.child(item, 0);
            if (e.getType() == TOK_TABLE_OR_COL) {
                return Ast.name(Ast.child(e, 0));
            }
            if (e.getType() == DOT) {
                return Ast.name(Ast.child(e, 1));
            }
            return "_c" + position;
        }

        private static RelNode distinct(RelNode.Project p) {
            List<Expr> keys = new ArrayList<>();
            for (int i = 0; i < p.fields().size(); i++) {
                keys.add(new Expr.Column(i, p.fields().get(i).type()));
            }
            return new RelNode.Aggregate(p, keys, List.of(), p.fields());
        }

        /**
         * The output column an ORDER BY key names: a position, a select alias, or an expression of
         * the select list; other expressions become hidden columns ({@code hidden} null: not allowed).
         */
        private static int outputColumn(ASTNode key, List<Field> fields, List<Expr> exprs, ExprBinder binder,
                                        List<Expr> hidden) {
            ASTNode e = Ast.child(Ast.child(key, 0), 0);
            if (e.getType() == Number) {
                int position = Integer.parseInt(e.getText());
                if (position < 1 || position > fields.size()) {
                    throw Ast.error(SqlException.SYNTAX, "ORDER BY position " + position + " is not in the select list", e);
                }
                return position - 1;
            }
            if (e.getType() == TOK_TABLE_OR_COL) {
                String name = Ast.name(Ast.child(e, 0));
                for (int i = 0; i < fields.size(); i++) {
                    if (fields.get(i).name().equals(name)) {
                        return i;
                    }
                }
            }
            Expr bound = binder.bind(e);
            int i = exprs.indexOf(bound);
            if (i >= 0) {
                return i;
            }
            if (hidden == null) {
                throw Ast.error(SqlException.SYNTAX, "with SELECT DISTINCT, ORDER BY must name a selected column", e);
            }
            hidden.add(bound);
            return hidden.size() - 1;
        }

        private static SortKey sortKey(ASTNode key, int column) {
            boolean ascending = key.getType() == TOK_TABSORTCOLNAMEASC;
            boolean nullsFirst = Ast.child(key, 0).getType() == TOK_NULLS_FIRST;
            return new SortKey(column, ascending, nullsFirst);
        }
    }

    /**
     * GROUP BY (with grouping sets: {@link GroupingSets}): the aggregation node, and a binder over
     * its output for HAVING, the select list and ORDER BY.
     */
    private static final class Grouping {
        private final List<Expr> keys = new ArrayList<>();
        private final List<AggregateCall> aggregates = new ArrayList<>();
        private final ExprBinder input;
        private final GroupingSets sets;
        /** Where the aggregates start among the output columns: after the keys (and the grouping id). */
        private final int firstAggregate;
        private final RelNode node;

        Grouping(RelNode rows, ExprBinder input, ASTNode groupBy, List<ASTNode> calls) {
            this.input = input;
            Scope scope = input.scope();
            List<Field> fields = new ArrayList<>();
            if (groupBy != null) {
                for (ASTNode k : GroupingSets.keyNodes(groupBy)) {
                    Expr key = input.bind(k);
                    if (!keys.contains(key)) {
                        keys.add(key);
                        fields.add(key instanceof Expr.Column c ? scope.fields().get(c.index())
                                : new Field(null, "_k" + keys.size(), key.type()));
                    }
                }
            }
            sets = GroupingSets.of(groupBy, input, keys);
            List<Field> keyFields = List.copyOf(fields);
            if (sets.several()) {
                fields.add(GroupingSets.idField());
            }
            firstAggregate = fields.size();
            for (ASTNode c : calls) {
                AggregateCall call = input.aggregate(c);
                if (!aggregates.contains(call)) {
                    aggregates.add(call);
                    fields.add(new Field(null, "_a" + aggregates.size(), call.type()));
                }
            }
            node = sets.several() ? sets.aggregate(rows, keys, keyFields, aggregates, fields)
                    : new RelNode.Aggregate(rows, keys, aggregates, fields);
        }

        RelNode node() {
            return node;
        }

        ExprBinder binder() {
            return new ExprBinder(new Scope(node.fields()), this::afterGrouping);
        }

        /** FROM column {@code i} as the groups give it, when it is a grouping key; else null. */
        Expr fromColumn(int i) {
            int k = keys.indexOf(new Expr.Column(i, input.scope().fields().get(i).type()));
            return k < 0 ? null : new Expr.Column(k, keys.get(k).type());
        }

        /** An aggregate or a grouping expression becomes an output column; any other column reference is an error. */
        Expr afterGrouping(ASTNode n) {
            if (ExprBinder.isAggregate(n)) {
                int i = aggregates.indexOf(input.aggregate(n));
                return new Expr.Column(firstAggregate + i, aggregates.get(i).type());
            }
            if (GroupingSets.isGroupingFunction(n)) {
                return sets.groupingFunction(n, input, keys, keys.size());
            }
            if (n.getType() == Number || n.getType() == StringLiteral || n.getType() == TOK_NULL) {
                return null;
            }
            Expr before;
            try {
                before = input.bind(n);
            } catch (SqlException e) {
                return null;
            }
            int k = keys.indexOf(before);
            if (k >= 0) {
                return new Expr.Column(k, before.type());
            }
            if (n.getType() == TOK_TABLE_OR_COL || n.getType() == DOT) {
                throw Ast.error(SqlException.SYNTAX, "column '" + n.toStringTree().replaceAll("[()]|TOK_TABLE_OR_COL ", "")
                        + "' must be in GROUP BY or inside an aggregate", n);
            }
            return null;
        }
    }
}

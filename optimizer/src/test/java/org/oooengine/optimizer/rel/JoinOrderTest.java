package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A group of inner joins is reordered so that each next relation is linked by an equality to those
 * joined while one is: a small, selective relation that only a later one links to is not joined
 * first as a cross product.
 */
class JoinOrderTest {
    private static final TableInfo FACT = table("fact", "f_key", "f_dim");
    private static final TableInfo DIM = table("dim", "d_key", "d_sub");
    private static final TableInfo SUB = table("sub", "s_key", "s_name");
    private static final Map<TableInfo, Long> ROWS = Map.of(FACT, 100_000L, DIM, 1_000L, SUB, 50L);
    private static final TableLayouts LAYOUTS = layouts(ROWS, 2, (table, column) -> (double) ROWS.get(table));

    @Test
    void aSelectiveRelationLinkedOnlyThroughAnotherWaitsForIt() {
        RelNode.Scan fact = scan(FACT, "f", null);
        RelNode.Scan dim = scan(DIM, "d", null);
        RelNode.Scan sub = scan(SUB, "s", eq(new Expr.Column(1, SqlType.STRING), new Expr.Literal("x", SqlType.STRING)));
        // written: sub, fact, dim, with sub.s_key = dim.d_sub and fact.f_dim = dim.d_key
        RelNode subFact = new RelNode.Join(sub, fact, JoinKind.CROSS, new int[0], new int[0], null);
        RelNode written = new RelNode.Join(subFact, dim, JoinKind.INNER, new int[] {3}, new int[] {0},
                eq(new Expr.Column(0, SqlType.BIGINT), new Expr.Column(5, SqlType.BIGINT)));
        RelNode reordered = JoinOrder.reorder(written, LAYOUTS, PipelinePlanner.Limits.DEFAULTS);
        List<RelNode.Join> joins = new ArrayList<>();
        collectJoins(reordered, joins);
        assertEquals(2, joins.size(), reordered.toString());
        joins.forEach(j -> assertNotEquals(JoinKind.CROSS, j.kind(), reordered.toString()));
    }

    @Test
    void aRelationShrunkByItsOwnPartnersIsHeldForTheLargestToProbe() {
        // inventory meets sales on the item alone (1,000 items: each sale meets a thousand inventory rows);
        // sales' dates and demographics keep 2% of it: joined first, it is what inventory probes
        TableInfo inventory = table("inventory", "inv_date", "inv_item");
        TableInfo sales = table("sales", "s_date", "s_item", "s_demo");
        TableInfo dates = table("dates", "d_key", "d_year");
        TableInfo demo = table("demo", "m_key", "m_status");
        Map<TableInfo, Long> rows = Map.of(inventory, 1_000_000L, sales, 100_000L, dates, 1_000L, demo, 1_000L);
        Map<String, Double> distinct = Map.of("inv_date", 1_000d, "inv_item", 1_000d, "s_date", 1_000d,
                "s_item", 1_000d, "s_demo", 1_000d, "d_key", 1_000d, "d_year", 10d, "m_key", 1_000d, "m_status", 5d);
        TableLayouts layouts = layouts(rows, 4, (table, column) -> distinct.get(table.columns().get(column).name()));
        Expr year = eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(1L, SqlType.BIGINT));
        Expr status = eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(2L, SqlType.BIGINT));
        RelNode inv = scan(inventory, "inv", null);
        RelNode sold = scan(sales, "s", null);
        RelNode d = scan(dates, "d", year);
        RelNode m = scan(demo, "m", status);
        // written: inventory, sales, dates, demo; columns inv 0-1, sales 2-4, dates 5-6, demo 7-8
        RelNode invSales = new RelNode.Join(inv, sold, JoinKind.INNER, new int[] {1}, new int[] {1}, null);
        RelNode withDates = new RelNode.Join(invSales, d, JoinKind.INNER, new int[] {2}, new int[] {0}, null);
        RelNode written = new RelNode.Join(withDates, m, JoinKind.INNER, new int[] {4}, new int[] {0}, null);

        RelNode reordered = JoinOrder.reorder(written, layouts, PipelinePlanner.Limits.DEFAULTS);

        List<RelNode.Join> joins = new ArrayList<>();
        collectJoins(reordered, joins);
        RelNode.Join top = joins.get(0);
        assertEquals(List.of("inventory"), tables(top.left()), reordered.toString());
        assertEquals(List.of("dates", "demo", "sales"), tables(top.right()).stream().sorted().toList(), reordered.toString());
        assertEquals(written.fields(), reordered.fields());
    }

    @Test
    void equalitiesThroughAThirdTableLinkTheOtherTwoAndCountOnce() {
        // TPC-H Q05: customer's and supplier's nations equal, and supplier's nation one of a
        // region's: customer may meet the region's nations first, before sales. Of the three
        // equalities on the nation key (two written, one implied) two are applied, the third adds nothing
        TableInfo sales = table("sales", "s_key", "s_cust", "s_supp");
        TableInfo cust = table("cust", "c_key", "c_nation");
        TableInfo supp = table("supp", "p_key", "p_nation");
        TableInfo nation = table("nation", "n_key", "n_region");
        Map<TableInfo, Long> rows = Map.of(sales, 1_000_000L, cust, 100_000L, supp, 1_000L, nation, 25L);
        Map<String, Double> distinct = Map.of("s_key", 1_000_000d, "s_cust", 100_000d, "s_supp", 1_000d, "c_key", 100_000d,
                "c_nation", 25d, "p_key", 1_000d, "p_nation", 25d, "n_key", 25d, "n_region", 5d);
        TableLayouts layouts = layouts(rows, 4, (table, column) -> distinct.get(table.columns().get(column).name()));
        RelNode region = scan(nation, "n", eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(1L, SqlType.BIGINT)));
        // written: sales, cust, supp, nation; columns sales 0-2, cust 3-4, supp 5-6, nation 7-8
        RelNode withCust = new RelNode.Join(scan(sales, "s", null), scan(cust, "c", null), JoinKind.INNER,
                new int[] {1}, new int[] {0}, null);
        RelNode withSupp = new RelNode.Join(withCust, scan(supp, "p", null), JoinKind.INNER, new int[] {2, 4},
                new int[] {0, 1}, null);
        RelNode written = new RelNode.Join(withSupp, region, JoinKind.INNER, new int[] {6}, new int[] {0}, null);

        RelNode reordered = JoinOrder.reorder(written, layouts, PipelinePlanner.Limits.DEFAULTS);

        List<RelNode.Join> joins = new ArrayList<>();
        collectJoins(reordered, joins);
        assertEquals(1, joins.stream().filter(j -> tables(j).stream().sorted().toList().equals(List.of("cust", "nation")))
                .count(), reordered.toString());
        assertEquals(4, joins.stream().mapToInt(j -> j.leftKeys().length).sum(), reordered.toString());
        assertEquals(written.fields(), reordered.fields());
    }

    @Test
    void aSmallDerivedTableIsHeldByEveryNodeSoItMayShrinkTheLargestFirst() {
        // sales meets a hundred items a subquery groups (1% of its rows are kept) and one year of
        // its dates (10%); the groups, computed on the coordinator, are few enough to send to every
        // node: sales probes them there first, rather than meeting its dates first and gathering
        // a tenth of its rows on the coordinator to meet the groups
        TableInfo sales = table("sales", "s_key", "s_date", "s_item");
        TableInfo dates = table("dates", "d_key", "d_year");
        TableInfo promo = table("promo", "p_key", "p_item");
        Map<TableInfo, Long> rows = Map.of(sales, 1_000_000L, dates, 1_000L, promo, 1_000L);
        Map<String, Double> distinct = Map.of("s_key", 1_000_000d, "s_date", 1_000d, "s_item", 10_000d,
                "d_key", 1_000d, "d_year", 10d, "p_key", 1_000d, "p_item", 100d);
        TableLayouts layouts = layouts(rows, 4, (table, column) -> distinct.get(table.columns().get(column).name()));
        RelNode sold = scan(sales, "s", null);
        RelNode d = scan(dates, "d", eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(1L, SqlType.BIGINT)));
        RelNode items = new RelNode.Aggregate(scan(promo, "p", null), List.of(new Expr.Column(1, SqlType.BIGINT)),
                List.of(), List.of(new Field("g", "p_item", SqlType.BIGINT)));
        // written: sales, dates, the groups; columns sales 0-2, dates 3-4, groups 5
        RelNode withDates = new RelNode.Join(sold, d, JoinKind.INNER, new int[] {1}, new int[] {0}, null);
        RelNode written = new RelNode.Join(withDates, items, JoinKind.INNER, new int[] {2}, new int[] {0}, null);

        RelNode reordered = JoinOrder.reorder(written, layouts, PipelinePlanner.Limits.DEFAULTS);

        List<RelNode.Join> joins = new ArrayList<>();
        collectJoins(reordered, joins);
        RelNode.Join top = joins.get(0);
        assertEquals(List.of("dates"), tables(top.right()), reordered.toString());
        assertEquals(List.of("sales", "promo"), tables(top.left()), reordered.toString());
        assertEquals(written.fields(), reordered.fields());
        // with nothing broadcast, the groups wait until the dates have shrunk sales
        RelNode unsent = JoinOrder.reorder(written, layouts, new PipelinePlanner.Limits(0, Long.MAX_VALUE, true));
        joins.clear();
        collectJoins(unsent, joins);
        assertEquals(List.of("promo"), tables(joins.get(0).right()), unsent.toString());
    }

    @Test
    void aGroupByIsSemiJoinedWithItsPartnerOnlyWhereThatDropsRows() {
        // sums per dimension key joined to the dimension rows of one region: semi-joined first where
        // the region holds a tenth of the keys, not where every key is in it (TPC-DS Q01's stores)
        assertEquals(1, semiJoins(10d), "one region of ten");
        assertEquals(0, semiJoins(1d), "one region only");
    }

    private static long semiJoins(double regions) {
        TableInfo fact = table("fact", "f_key", "f_dim");
        TableInfo dim = table("dim", "d_key", "d_region");
        Map<TableInfo, Long> rows = Map.of(fact, 100_000L, dim, 1_000L);
        Map<String, Double> distinct = Map.of("f_key", 100_000d, "f_dim", 1_000d, "d_key", 1_000d, "d_region", regions);
        TableLayouts layouts = layouts(rows, 4, (table, column) -> distinct.get(table.columns().get(column).name()));
        RelNode sums = new RelNode.Aggregate(scan(fact, "f", null), List.of(new Expr.Column(1, SqlType.BIGINT)),
                List.of(), List.of(new Field("g", "f_dim", SqlType.BIGINT)));
        RelNode region = scan(dim, "d", eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(1L, SqlType.BIGINT)));
        RelNode written = new RelNode.Join(sums, region, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        RelNode reordered = JoinOrder.reorder(written, layouts, PipelinePlanner.Limits.DEFAULTS);
        return reordered.toString().split("SEMI", -1).length - 1;
    }

    @Test
    void aGroupingOfAUnionIsReducedBranchByBranch() {
        // TPC-DS Q02: the weeks of two channels' sales summed, joined with one year's weeks; each
        // branch of the union is semi-joined with those weeks, so the GROUP BY can still be split
        // per branch on the nodes
        TableInfo web = table("web", "w_key", "w_week");
        TableInfo catalog = table("catalog", "c_key", "c_week");
        TableInfo weeks = table("weeks", "k_week", "k_year");
        Map<TableInfo, Long> rows = Map.of(web, 100_000L, catalog, 200_000L, weeks, 1_000L);
        Map<String, Double> distinct = Map.of("w_key", 100_000d, "w_week", 1_000d, "c_key", 200_000d, "c_week", 1_000d,
                "k_week", 1_000d, "k_year", 10d);
        TableLayouts layouts = layouts(rows, 4, (table, column) -> distinct.get(table.columns().get(column).name()));
        RelNode union = new RelNode.Union(List.of(scan(web, "w", null), scan(catalog, "c", null)), scan(web, "w", null).fields());
        RelNode sums = new RelNode.Aggregate(union, List.of(new Expr.Column(1, SqlType.BIGINT)), List.of(),
                List.of(new Field("s", "week", SqlType.BIGINT)));
        RelNode year = scan(weeks, "k", eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(1L, SqlType.BIGINT)));
        RelNode written = new RelNode.Join(sums, year, JoinKind.INNER, new int[] {0}, new int[] {0}, null);

        RelNode reordered = JoinOrder.reorder(written, layouts, PipelinePlanner.Limits.DEFAULTS);

        RelNode.Aggregate reduced = findAggregate(reordered);
        RelNode.Union branches = assertInstanceOf(RelNode.Union.class, reduced.input(),
                reordered.toString());
        for (RelNode branch : branches.inputs()) {
            RelNode.Join semi = assertInstanceOf(RelNode.Join.class, branch);
            assertEquals(JoinKind.SEMI, semi.kind());
            assertEquals(List.of("weeks"), tables(semi.right()));
        }
        assertEquals(written.fields(), reordered.fields());
    }

    private static RelNode.Aggregate findAggregate(RelNode node) {
        if (node instanceof RelNode.Aggregate a) {
            return a;
        }
        RelNode.Aggregate[] found = new RelNode.Aggregate[1];
        RelNode.mapInputs(node, input -> {
            if (found[0] == null) {
                found[0] = findAggregate(input);
            }
            return input;
        });
        return found[0];
    }

    private static List<String> tables(RelNode node) {
        List<String> out = new ArrayList<>();
        if (node instanceof RelNode.Scan s) {
            out.add(s.table().name());
        }
        RelNode.mapInputs(node, input -> {
            out.addAll(tables(input));
            return input;
        });
        return out;
    }

    private static TableLayouts layouts(Map<TableInfo, Long> rows, int nodes,
                                        java.util.function.BiFunction<TableInfo, Integer, Double> distinct) {
        return new TableLayouts() {
            @Override
            public OptionalLong rows(TableInfo table) {
                return OptionalLong.of(rows.get(table));
            }

            @Override
            public OptionalLong bytes(TableInfo table) {
                return OptionalLong.empty();
            }

            @Override
            public int nodes(TableInfo table) {
                return nodes;
            }

            @Override
            public boolean partitionedAlike(TableInfo a, TableInfo b) {
                return false;
            }

            @Override
            public long[] range(TableInfo table, int column) {
                return null;
            }

            @Override
            public double distinct(TableInfo table, int column) {
                return distinct.apply(table, column);
            }
        };
    }

    private static void collectJoins(RelNode node, List<RelNode.Join> out) {
        if (node instanceof RelNode.Join j) {
            out.add(j);
            collectJoins(j.left(), out);
            collectJoins(j.right(), out);
        } else if (node instanceof RelNode.Project p) {
            collectJoins(p.input(), out);
        } else if (node instanceof RelNode.Filter f) {
            collectJoins(f.input(), out);
        }
    }

    private static Expr eq(Expr a, Expr b) {
        return new Expr.Call(ScalarFunction.EQ, List.of(a, b), SqlType.BOOLEAN);
    }

    private static RelNode.Scan scan(TableInfo t, String alias, Expr filter) {
        List<Field> fields = t.columns().stream().map(c -> new Field(alias, c.name(), c.type())).toList();
        return new RelNode.Scan(t, alias, fields, filter);
    }

    private static TableInfo table(String name, String key, String... others) {
        List<ResultColumn> cols = new ArrayList<>(List.of(new ResultColumn(key, SqlType.BIGINT)));
        for (String other : others) {
            cols.add(new ResultColumn(other, other.endsWith("name") ? SqlType.STRING : SqlType.BIGINT));
        }
        return new TableInfo("default", name, cols, List.of(key), name, Map.of(), "");
    }
}

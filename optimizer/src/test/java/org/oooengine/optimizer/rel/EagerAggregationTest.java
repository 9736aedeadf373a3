package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A GROUP BY over a join to a dimension, whose aggregates read the facts alone, groups the facts
 * by their join key and grouping keys first where that pays: many sales per customer and year, a
 * join that keeps them; sums and extremes merge as themselves, counts as sums. A selective join,
 * a GROUP BY without keys or an average are left as they are.
 */
class EagerAggregationTest {
    /** sales: 1,000,000 rows over 10,000 customers and 5 years. */
    private static final TableInfo SALES = table("sales", List.of("s_id", "s_cust", "s_year", "s_amount"));
    /** customer: 10,000 rows in 20 cities. */
    private static final TableInfo CUSTOMER = table("customer", List.of("c_id", "c_city"));
    /** orders: 100,000 rows over the 10,000 customers; lines: 150,000 rows over the orders. */
    private static final TableInfo ORDERS = table("orders", List.of("o_id", "o_cust"));
    private static final TableInfo LINES = table("lines", List.of("l_id", "l_order", "l_amount"));
    private static final Map<String, double[]> DISTINCT = Map.of(
            "sales", new double[] {1_000_000, 10_000, 5, 100_000}, "customer", new double[] {10_000, 20},
            "orders", new double[] {100_000, 10_000}, "lines", new double[] {150_000, 100_000, 50_000});
    private static final Map<TableInfo, Long> ROWS = Map.of(SALES, 1_000_000L, ORDERS, 100_000L, LINES, 150_000L);
    private static final TableLayouts LAYOUTS = new TableLayouts() {
        @Override
        public OptionalLong rows(TableInfo table) {
            return OptionalLong.of(ROWS.getOrDefault(table, 10_000L));
        }

        @Override
        public OptionalLong bytes(TableInfo table) {
            return OptionalLong.empty();
        }

        @Override
        public int nodes(TableInfo table) {
            return 4;
        }

        @Override
        public boolean partitionedAlike(TableInfo a, TableInfo b) {
            return false;
        }

        @Override
        public double distinct(TableInfo table, int column) {
            return DISTINCT.get(table.name())[column];
        }
    };

    private final RelNode.Scan sales = new RelNode.Scan(SALES, "s", fields("s", SALES), null);
    private final RelNode.Scan customer = new RelNode.Scan(CUSTOMER, "c", fields("c", CUSTOMER), null);

    @Test
    void salesAreGroupedByCustomerAndYearBeforeMeetingTheCustomers() {
        // customer ⋈ sales, GROUP BY c_city, s_year: sum, count(*), min of the amounts
        RelNode.Join join = new RelNode.Join(customer, sales, JoinKind.INNER, new int[] {0}, new int[] {1}, null);
        RelNode.Aggregate a = perCityAndYear(join, List.of(call(AggregateCall.Kind.SUM, 5), count(), call(AggregateCall.Kind.MIN, 5)));
        RelNode.Aggregate eager = assertInstanceOf(RelNode.Aggregate.class, apply(a));
        RelNode.Join joined = assertInstanceOf(RelNode.Join.class, eager.input());
        RelNode.Aggregate partial = assertInstanceOf(RelNode.PartialGroups.class, joined.right()).groups();
        assertSame(customer, joined.left());
        assertSame(sales, partial.input());
        assertEquals(List.of(column(1, SqlType.INT), column(2, SqlType.INT)), partial.keys()); // s_cust, s_year
        assertEquals(0, joined.rightKeys()[0]);
        // the city from the customer, the year from the partial groups; the counts summed
        assertEquals(List.of(column(1, SqlType.STRING), column(3, SqlType.INT)), eager.keys());
        assertEquals(List.of(AggregateCall.Kind.SUM, AggregateCall.Kind.SUM, AggregateCall.Kind.MIN),
                eager.aggregates().stream().map(AggregateCall::kind).toList());
        assertEquals(List.of(column(4, SqlType.decimal(22, 2)), column(5, SqlType.BIGINT), column(6, SqlType.decimal(12, 2))),
                eager.aggregates().stream().map(AggregateCall::arg).toList());
        assertEquals(a.aggregates().stream().map(AggregateCall::type).toList(),
                eager.aggregates().stream().map(AggregateCall::type).toList());
        assertEquals(a.fields(), eager.fields());
    }

    /**
     * customer LEFT JOIN sales, GROUP BY c_id, count(s_amount) and max(s_amount) (TPC-H Q13's
     * shape): the sales grouped by customer first, and the count of a customer who met no group 0,
     * not the null its padded partial count sums to. With count(*), which counts the padded row, or
     * over a RIGHT join, the plan stays as it is.
     */
    @Test
    void salesOfALeftJoinAreGroupedByCustomerAndACustomerWithoutAnyCountsZero() {
        RelNode.Join join = new RelNode.Join(customer, sales, JoinKind.LEFT, new int[] {0}, new int[] {1}, null);
        List<AggregateCall> calls = List.of(call(AggregateCall.Kind.COUNT, 5), call(AggregateCall.Kind.MAX, 5));
        RelNode.Aggregate a = perCustomer(join, calls);
        RelNode.Project zeros = assertInstanceOf(RelNode.Project.class, apply(a));
        assertEquals(a.fields(), zeros.fields());
        assertEquals(List.of(column(0, SqlType.INT), new Expr.Call(ScalarFunction.COALESCE,
                List.of(column(1, SqlType.BIGINT), new Expr.Literal(0L, SqlType.BIGINT)), SqlType.BIGINT),
                column(2, SqlType.decimal(12, 2))), zeros.exprs());
        RelNode.Aggregate eager = assertInstanceOf(RelNode.Aggregate.class, zeros.input());
        RelNode.Join joined = assertInstanceOf(RelNode.Join.class, eager.input());
        assertEquals(JoinKind.LEFT, joined.kind());
        assertSame(customer, joined.left());
        RelNode.Aggregate partial = assertInstanceOf(RelNode.PartialGroups.class, joined.right()).groups();
        assertEquals(List.of(column(1, SqlType.INT)), partial.keys()); // s_cust
        assertEquals(List.of(AggregateCall.Kind.SUM, AggregateCall.Kind.MAX),
                eager.aggregates().stream().map(AggregateCall::kind).toList());

        RelNode.Aggregate countStar = perCustomer(join, List.of(count(), call(AggregateCall.Kind.SUM, 5)));
        assertUnchanged(apply(countStar));
        RelNode.Join right = new RelNode.Join(customer, sales, JoinKind.RIGHT, new int[] {0}, new int[] {1}, null);
        assertUnchanged(apply(perCustomer(right, calls)));
    }

    /**
     * (customer ⋈ orders) ⋈ lines, GROUP BY the customer's key and city, sum of the lines'
     * amounts (TPC-H Q10's shape): grouping the lines by order, before the last join, would not
     * pay (1.5 lines per order), so the group is parted into the customers (the keys' relation)
     * and the orders with their lines, grouped by customer before they meet the customers.
     * Where a key reads the lines too, nothing parts.
     */
    @Test
    void ordersWithTheirLinesAreGroupedByCustomerBeforeMeetingTheCustomers() {
        RelNode.Scan orders = new RelNode.Scan(ORDERS, "o", fields("o", ORDERS), null);
        RelNode.Scan lines = new RelNode.Scan(LINES, "l", fields("l", LINES), null);
        RelNode.Join customerOrders = new RelNode.Join(customer, orders, JoinKind.INNER, new int[] {0}, new int[] {1}, null);
        RelNode.Join join = new RelNode.Join(customerOrders, lines, JoinKind.INNER, new int[] {2}, new int[] {1}, null);
        List<AggregateCall> sum = List.of(call(AggregateCall.Kind.SUM, 6));
        List<Field> out = List.of(new Field("c", "c_id", SqlType.INT), new Field("c", "c_city", SqlType.STRING),
                new Field(null, "revenue", sum.get(0).type()));
        RelNode.Aggregate a = new RelNode.Aggregate(join, List.of(column(0, SqlType.INT), column(1, SqlType.STRING)), sum, out);

        RelNode.Aggregate eager = assertInstanceOf(RelNode.Aggregate.class, apply(a));
        RelNode.Join joined = assertInstanceOf(RelNode.Join.class, eager.input());
        assertSame(customer, joined.left());
        RelNode.Aggregate partial = assertInstanceOf(RelNode.PartialGroups.class, joined.right()).groups();
        RelNode.Join ordersLines = assertInstanceOf(RelNode.Join.class, partial.input());
        assertEquals(java.util.Set.of(orders, lines), java.util.Set.of(ordersLines.left(), ordersLines.right()));
        int custAt = ordersLines.left() == orders ? 1 : 3 + 1;
        assertEquals(List.of(column(custAt, SqlType.INT)), partial.keys()); // o_cust
        assertEquals(List.of(column(0, SqlType.INT), column(1, SqlType.STRING)), eager.keys());
        assertEquals(List.of(column(3, SqlType.decimal(22, 2))), eager.aggregates().stream().map(AggregateCall::arg).toList());
        assertEquals(out, eager.fields());

        List<Expr> byLine = List.of(column(0, SqlType.INT), column(4, SqlType.INT));
        RelNode.Aggregate perLine = new RelNode.Aggregate(join, byLine, sum, List.of(out.get(0),
                new Field("l", "l_id", SqlType.INT), out.get(2)));
        assertUnchanged(apply(perLine));
    }

    @Test
    void aSelectiveJoinAGroupByWithoutKeysOrAnAverageStayAsTheyAre() {
        Expr oneCity = new Expr.Call(ScalarFunction.EQ, List.of(column(1, SqlType.STRING),
                new Expr.Literal("Springfield", SqlType.STRING)), SqlType.BOOLEAN);
        RelNode.Join selective = new RelNode.Join(new RelNode.Filter(customer, oneCity), sales, JoinKind.INNER,
                new int[] {0}, new int[] {1}, null);
        RelNode.Aggregate fewSales = perCityAndYear(selective, List.of(call(AggregateCall.Kind.SUM, 5)));
        assertUnchanged(apply(fewSales));

        RelNode.Join join = new RelNode.Join(customer, sales, JoinKind.INNER, new int[] {0}, new int[] {1}, null);
        RelNode.Aggregate total = new RelNode.Aggregate(join, List.of(), List.of(count()),
                List.of(new Field(null, "n", SqlType.BIGINT)));
        assertUnchanged(apply(total));
        RelNode.Aggregate average = perCityAndYear(join, List.of(call(AggregateCall.Kind.AVG, 5)));
        assertUnchanged(apply(average));
    }

    /**
     * Customers of a few cities, few enough to send to every node, are joined where the sales are,
     * dropping the others' sales before any is grouped; all customers, sent alike, meet the sales'
     * groups (TPC-DS Q74: a row per customer and year, not per sale, meets the names).
     */
    @Test
    void aFilteredSideSmallEnoughToBroadcastIsJoinedBeforeTheFactsAreGrouped() {
        Expr someCities = new Expr.Call(ScalarFunction.NE, List.of(column(1, SqlType.STRING),
                new Expr.Literal("Springfield", SqlType.STRING)), SqlType.BOOLEAN);
        RelNode.Filter fewer = new RelNode.Filter(customer, someCities);
        RelNode.Join filtered = new RelNode.Join(fewer, sales, JoinKind.INNER, new int[] {0}, new int[] {1}, null);
        RelNode.Aggregate a = perCityAndYear(filtered, List.of(call(AggregateCall.Kind.SUM, 5)));
        java.util.BitSet[] asked = new java.util.BitSet[1];
        assertUnchanged(EagerAggregation.apply(a, CardinalityModel.of(LAYOUTS, a), (side, read) -> {
            asked[0] = read;
            return side.equals(fewer); // the join rebuilt above it: a record equal to it
        }, EagerAggregationTest::shape));
        assertEquals(java.util.BitSet.valueOf(new long[] {0b11}), asked[0]); // its key and the city
        RelNode.Join all = new RelNode.Join(customer, sales, JoinKind.INNER, new int[] {0}, new int[] {1}, null);
        RelNode.Aggregate b = perCityAndYear(all, List.of(call(AggregateCall.Kind.SUM, 5)));
        RelNode.Aggregate eager = assertInstanceOf(RelNode.Aggregate.class,
                EagerAggregation.apply(b, CardinalityModel.of(LAYOUTS, b), (side, read) -> side.equals(customer),
                        EagerAggregationTest::shape));
        assertInstanceOf(RelNode.PartialGroups.class, assertInstanceOf(RelNode.Join.class, eager.input()).right());
    }

    /** Still a GROUP BY over the join of the two tables, nothing grouped below it. */
    private static void assertUnchanged(RelNode plan) {
        RelNode.Join join = assertInstanceOf(RelNode.Join.class, assertInstanceOf(RelNode.Aggregate.class, plan).input());
        for (RelNode side : List.of(join.left(), join.right())) {
            assertFalse(side instanceof RelNode.Aggregate || side instanceof RelNode.PartialGroups, side.toString());
        }
    }

    private RelNode apply(RelNode plan) {
        return EagerAggregation.apply(plan, CardinalityModel.of(LAYOUTS, plan), (side, read) -> false,
                EagerAggregationTest::shape);
    }

    private static JoinGraph.Shape shape(JoinGraph graph) {
        CardinalityModel model = CardinalityModel.of(LAYOUTS, graph.leftDeep(java.util.stream.IntStream.range(0,
                graph.leaves().size()).toArray()));
        return JoinSearch.search(graph, model::rows, LAYOUTS, Long.MAX_VALUE);
    }

    private static RelNode.Aggregate perCityAndYear(RelNode join, List<AggregateCall> calls) {
        List<Field> out = new java.util.ArrayList<>(List.of(new Field("c", "c_city", SqlType.STRING),
                new Field("s", "s_year", SqlType.INT)));
        calls.forEach(c -> out.add(new Field(null, c.toString(), c.type())));
        return new RelNode.Aggregate(join, List.of(column(1, SqlType.STRING), column(4, SqlType.INT)), calls, out);
    }

    private static RelNode.Aggregate perCustomer(RelNode join, List<AggregateCall> calls) {
        List<Field> out = new java.util.ArrayList<>(List.of(new Field("c", "c_id", SqlType.INT)));
        calls.forEach(c -> out.add(new Field(null, c.toString(), c.type())));
        return new RelNode.Aggregate(join, List.of(column(0, SqlType.INT)), calls, out);
    }

    private static AggregateCall call(AggregateCall.Kind kind, int column) {
        Expr arg = column(column, SqlType.decimal(12, 2));
        return new AggregateCall(kind, arg, false, AggregateCall.resultType(kind, arg.type()));
    }

    private static AggregateCall count() {
        return new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT);
    }

    private static Expr column(int i, SqlType type) {
        return new Expr.Column(i, type);
    }

    private static TableInfo table(String name, List<String> columns) {
        List<ResultColumn> cols = columns.stream().map(c -> new ResultColumn(c,
                c.endsWith("amount") ? SqlType.decimal(12, 2) : c.endsWith("city") ? SqlType.STRING : SqlType.INT)).toList();
        return new TableInfo("default", name, cols, List.of(columns.get(0)), name, Map.of(), "");
    }

    private static List<Field> fields(String alias, TableInfo t) {
        return t.columns().stream().map(c -> new Field(alias, c.name(), c.type())).toList();
    }
}

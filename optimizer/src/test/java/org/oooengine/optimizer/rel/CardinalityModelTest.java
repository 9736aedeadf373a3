package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
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
 * Row estimates from the tables' statistics: an equality keeps one distinct value's share, IN one
 * per item, OR what any term keeps; GROUP BY makes the product of its keys' distinct values; joins
 * follow their keys' distinct values. A column is followed back to its table by its alias.
 */
class CardinalityModelTest {
    /** orders: 1,500 rows, 5 priorities, 1,000 customers, dates over seven years. */
    private static final TableInfo ORDERS = table("orders", "o_orderkey", "o_orderpriority", "o_custkey", "o_orderdate");
    /** customer: 1,000 rows, 25 nations. */
    private static final TableInfo CUSTOMER = table("customer", "c_custkey", "c_nationkey");
    private static final Map<String, double[]> DISTINCT = Map.of(
            "orders", new double[] {1500, 5, 1000, 2400}, "customer", new double[] {1000, 25});
    private static final long FIRST = LocalDate.of(1992, 1, 1).toEpochDay();
    private static final long LAST = LocalDate.of(1998, 12, 31).toEpochDay();
    private static final TableLayouts LAYOUTS = new Statistics() {
        @Override
        public OptionalLong rows(TableInfo table) {
            return OptionalLong.of(table == ORDERS ? 1500 : 1000);
        }

        @Override
        public long[] range(TableInfo table, int column) {
            return table == ORDERS && column == 3 ? new long[] {FIRST, LAST} : null;
        }

        @Override
        public double distinct(TableInfo table, int column) {
            return DISTINCT.get(table.name())[column];
        }

        @Override
        public List<String> sample(TableInfo table, int column) {
            if (table != ORDERS || column != 1) {
                return List.of();
            }
            List<String> sample = new java.util.ArrayList<>();
            for (int i = 0; i < 100; i++) { // 3 urgent in 100, the rest of the five priorities alike
                sample.add(i < 3 ? "1-URGENT" : i % 2 == 0 ? "2-HIGH" : "5-LOW");
            }
            return sample;
        }
    };

    private final RelNode.Scan orders = new RelNode.Scan(ORDERS, "o", fields("o", ORDERS), null);
    private final RelNode.Scan customer = new RelNode.Scan(CUSTOMER, "c", fields("c", CUSTOMER), null);
    private final CardinalityModel model = CardinalityModel.of(LAYOUTS, List.of(orders, customer), n -> null);

    @Test
    void equalitiesInListsAndOrsKeepTheirValuesShare() {
        List<Field> f = orders.fields();
        assertEquals(1 / 5.0, model.share(eq(col(1), text("1-URGENT")), f, RowEstimates.Ranges.NONE), 1e-12);
        assertEquals(4 / 5.0, model.share(new Expr.Not(eq(col(1), text("1-URGENT"))), f, RowEstimates.Ranges.NONE), 1e-12);
        assertEquals(1 - 0.8 * 0.8, model.share(new Expr.Or(List.of(eq(col(1), text("1-URGENT")),
                eq(col(1), text("2-HIGH")))), f, RowEstimates.Ranges.NONE), 1e-12);
        List<Field> unsampled = List.of(new Field("z", "zz", SqlType.STRING), new Field("z", "zy", SqlType.STRING));
        assertEquals(0.1 * 0.9, model.share(new Expr.And(List.of(new Expr.Like(col(1), "%x%", false),
                new Expr.Like(col(1), "y%", true))), unsampled, RowEstimates.Ranges.NONE), 1e-12);
        // a column of no known table: a quarter, as without statistics
        assertEquals(0.25, model.share(eq(col(0), text("x")), List.of(new Field("z", "zz", SqlType.STRING)),
                RowEstimates.Ranges.NONE), 1e-12);
    }

    /**
     * Terms that each keep a set of one column's values keep at most the smallest set (TPC-DS Q74's
     * {@code d_year IN (2001, 2002) AND d_year = 2002}: one year, not a fifth of one); terms on
     * other columns still multiply.
     */
    @Test
    void valueSetsOfOneColumnKeepTheSmallestNotTheirProduct() {
        List<Field> f = orders.fields();
        Expr twoPriorities = new Expr.InList(col(1), List.of(text("1-URGENT"), text("2-HIGH")), false);
        Expr urgent = eq(col(1), text("1-URGENT"));
        assertEquals(1 / 5.0, model.share(new Expr.And(List.of(twoPriorities, urgent)), f, RowEstimates.Ranges.NONE), 1e-12);
        assertEquals(1 / 5.0, model.share(new Expr.And(List.of(urgent, twoPriorities)), f, RowEstimates.Ranges.NONE), 1e-12);
        Expr oneCustomer = eq(new Expr.Column(2, SqlType.BIGINT), new Expr.Literal(7L, SqlType.BIGINT));
        assertEquals(2 / 5.0 / 1000, model.share(new Expr.And(List.of(twoPriorities, oneCustomer)), f,
                RowEstimates.Ranges.NONE), 1e-12);
        Expr notUrgent = new Expr.InList(col(1), List.of(text("1-URGENT")), true);
        assertEquals(2 / 5.0 * 4 / 5.0, model.share(new Expr.And(List.of(twoPriorities, notUrgent)), f,
                RowEstimates.Ranges.NONE), 1e-12);
    }

    @Test
    void groupsAreTheProductOfTheKeysDistinctValuesAtMostTheRows() {
        List<Field> f = orders.fields();
        assertEquals(5, model.groups(1500, List.of(col(1)), f));
        assertEquals(1500, model.groups(1500, List.of(col(1), col(2)), f));
        Expr year = new Expr.Call(ScalarFunction.YEAR, List.of(new Expr.Column(3, SqlType.DATE)), SqlType.INT);
        assertEquals(35, model.groups(1500, List.of(year, col(1)), f)); // seven years, five priorities
        assertEquals(15, model.partialGroups(1500, List.of(col(1)), f, null, 3));
        assertEquals(375, model.groups(1500, List.of(col(0)), List.of(new Field(null, "unknown", SqlType.INT))));
    }

    /**
     * Keys of one table's columns combine into at most the rows its scan keeps, whatever rows a
     * join makes of them (TPC-DS Q22's four item columns: the items, not their values' product);
     * each table's keys are bounded apart, then multiply.
     */
    @Test
    void keysOfOneTableMakeAtMostItsRows() {
        List<Field> joined = new java.util.ArrayList<>(orders.fields());
        joined.addAll(customer.fields());
        Expr priority = col(1);
        Expr date = new Expr.Column(3, SqlType.DATE);
        Expr nation = new Expr.Column(5, SqlType.BIGINT);
        assertEquals(1500, model.groups(1_000_000, List.of(priority, date), joined)); // not 5 x 2,400
        assertEquals(1500 * 25, model.groups(1_000_000, List.of(priority, date, nation), joined));
        RelNode.Scan urgent = new RelNode.Scan(ORDERS, "o", fields("o", ORDERS), eq(col(1), text("1-URGENT")));
        CardinalityModel filtered = CardinalityModel.of(LAYOUTS, List.of(urgent, customer), n -> null);
        // the scan keeps a fifth of the orders: 300 rows, one priority
        assertEquals(300, filtered.groups(1_000_000, List.of(priority, date), joined));
    }

    /**
     * A table's primary key among the keys determines its other columns: the combinations are the
     * key's values (TPC-H Q10: the customers of a quarter's returns, grouped by their key and eight
     * more of their columns, 37,967 groups; the customers' rows gave 78,297).
     */
    @Test
    void aTablesPrimaryKeyDeterminesItsOtherKeys() {
        List<Field> joined = new java.util.ArrayList<>(orders.fields());
        joined.addAll(customer.fields());
        Expr custkey = new Expr.Column(4, SqlType.BIGINT);
        Expr nation = new Expr.Column(5, SqlType.BIGINT);
        double[] d = {1500, 5, 400, 2400, 400, 25}; // a join left 400 of the customers
        assertEquals(400, model.groups(5000, List.of(custkey, nation), joined, d)); // not the 1,000 customers
        assertEquals(400 * 5, model.groups(5000, List.of(custkey, nation, col(1)), joined, d));
        // o_custkey is no key of orders: its 400 values and five priorities, at most the 1,500 orders
        assertEquals(1500, model.groups(5000, List.of(new Expr.Column(2, SqlType.BIGINT), col(1)), joined, d));
    }

    /**
     * A table joined on its primary key adds no groups to those of the row it joined: an order's
     * customer, and so the customer's nation, is one (TPC-H Q10's customers grouped with their
     * nation's name). Grouped by a column that fixes no order, the nations still multiply.
     */
    @Test
    void aTableJoinedOnItsPrimaryKeyIsFixedByTheRowItJoined() {
        CardinalityModel m = CardinalityModel.of(LAYOUTS, List.of(orders, customer), n -> null);
        List<Field> joined = new java.util.ArrayList<>(orders.fields());
        joined.addAll(customer.fields());
        Expr orderkey = new Expr.Column(0, SqlType.BIGINT);
        Expr nation = new Expr.Column(5, SqlType.BIGINT);
        double[] d = {300, 5, 250, 2400, 250, 25};
        assertEquals(5000, m.groups(5000, List.of(orderkey, nation), joined, d)); // 300 orders x 25 nations
        m.rows(new RelNode.Join(orders, customer, JoinKind.INNER, new int[] {2}, new int[] {0}, null));
        assertEquals(300, m.groups(5000, List.of(orderkey, nation), joined, d));
        assertEquals(250, m.groups(5000, List.of(new Expr.Column(2, SqlType.BIGINT), nation), joined, d)); // by o_custkey
        assertEquals(5 * 25, m.groups(5000, List.of(col(1), nation), joined, d)); // priorities: no order fixed
    }

    @Test
    void joinsFollowTheirKeysDistinctValues() {
        List<Field> o = orders.fields();
        double[] d = model.base(o);
        PipelineRows.Side customers = new PipelineRows.Side(customer.fields(), 1000, 1000, model.base(customer.fields()));
        // every order's customer exists: one row per order, whichever side probes
        assertEquals(1500, model.joined(JoinKind.INNER, 1500, o, d, List.of(2), customers, List.of(0), null));
        PipelineRows.Side someCustomers = new PipelineRows.Side(customer.fields(), 40, 1000,
                model.base(customer.fields())); // one nation's
        assertEquals(60, model.joined(JoinKind.INNER, 1500, o, d, List.of(2), someCustomers, List.of(0), null));
        assertEquals(60, model.joined(JoinKind.SEMI, 1500, o, d, List.of(2), someCustomers, List.of(0), null));
        assertEquals(1440, model.joined(JoinKind.ANTI, 1500, o, d, List.of(2), someCustomers, List.of(0), null));
    }

    /**
     * A join that keeps a share of a table's rows keeps the values of its other columns that those
     * rows hold: the orders of 40 of 1,000 customers fall on the same 5 priorities, while the
     * customers' keys are 40.
     */
    @Test
    void aJoinThinsTheOtherColumnsOfTheTableItFilters() {
        Expr oneNation = eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(7L, SqlType.BIGINT));
        RelNode.Filter nation7 = new RelNode.Filter(customer, oneNation);
        RelNode.Join joined = new RelNode.Join(nation7, orders, JoinKind.INNER, new int[] {0}, new int[] {2}, null);
        double[] columns = model.columns(joined);
        assertEquals(40, columns[4], 1e-12); // o_custkey
        assertEquals(60, columns[2], 1e-12); // o_orderkey: the rows' own keys (60 orders)
        assertEquals(5, columns[3], 0.01); // o_orderpriority: 300 orders a priority, some among the 60
        assertEquals(60, columns[5], 1e-12); // o_orderdate: 2,400 dates, at most one per order left
    }

    /**
     * A semi or anti join of a filtered probe side: a probe key is among the build's with the share
     * of all the key's values the build holds, not of those the probe kept (the customers of one
     * nation without orders are a share of them, not none).
     */
    @Test
    void semiAndAntiJoinsCoverTheKeysDomain() {
        List<Field> c = customer.fields();
        double[] oneNation = {40, 1};
        double[] ordering = model.base(orders.fields());
        ordering[2] = 600; // 600 of the 1,000 customers have orders
        PipelineRows.Side withOrders = new PipelineRows.Side(orders.fields(), 1500, 1500, ordering);
        assertEquals(24, model.joined(JoinKind.SEMI, 40, c, oneNation, List.of(0), withOrders, List.of(2), null));
        assertEquals(16, model.joined(JoinKind.ANTI, 40, c, oneNation, List.of(0), withOrders, List.of(2), null));
    }

    /** A LIKE on a column whose values were sampled keeps the share of the sample it matches; none matching, half a value. */
    @Test
    void aLikeKeepsTheShareOfTheSampledValuesItMatches() {
        List<Field> f = orders.fields();
        assertEquals(0.03, model.share(new Expr.Like(col(1), "1-%", false), f, RowEstimates.Ranges.NONE), 1e-12);
        assertEquals(0.97, model.share(new Expr.Like(col(1), "1-%", true), f, RowEstimates.Ranges.NONE), 1e-12);
        assertEquals(0.005, model.share(new Expr.Like(col(1), "%MEDIUM%", false), f, RowEstimates.Ranges.NONE), 1e-12);
        // no sample of the column: a tenth per piece of text
        assertEquals(0.1, model.share(new Expr.Like(new Expr.Column(0, SqlType.STRING), "x%", false),
                List.of(new Field("z", "zz", SqlType.STRING)), RowEstimates.Ranges.NONE), 1e-12);
    }

    @Test
    void aLikeKeepsATenthForEachPieceOfText() {
        assertEquals(0.1, RowEstimates.likeShare("forest%"), 1e-12);
        assertEquals(0.01, RowEstimates.likeShare("%special%requests%"), 1e-12);
        assertEquals(1, RowEstimates.likeShare("%"), 1e-12);
    }

    /** A count of a GROUP BY is one of the counts up to three times the mean group (TPC-H Q13 groups by it). */
    @Test
    void countsOfGroupsTakeFewValues() {
        List<Expr> byCustomer = List.of(col(2));
        List<org.oooengine.core.sql.expr.AggregateCall> count = List.of(new org.oooengine.core.sql.expr.AggregateCall(
                org.oooengine.core.sql.expr.AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT));
        double[] d = model.grouped(byCustomer, count, 1500, orders.fields(), null, 2);
        assertEquals(1000, d[0], 1e-12);
        assertEquals(3 * 1.5 + 1, d[1], 1e-12);
    }

    /** A filter and a join narrow a column's values for what is above them: the nations of one region's customers. */
    @Test
    void distinctValuesNarrowThroughFiltersAndJoins() {
        Expr oneNation = eq(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(7L, SqlType.BIGINT));
        RelNode.Filter nation7 = new RelNode.Filter(customer, oneNation);
        assertEquals(1, model.columns(nation7)[1], 1e-12);
        assertEquals(40, model.rows(nation7)); // 1,000 customers over 25 nations
        RelNode.Join joined = new RelNode.Join(orders, nation7, JoinKind.INNER, new int[] {2}, new int[] {0}, null);
        assertEquals(60, model.rows(joined));
        double[] columns = model.columns(joined);
        assertEquals(40, columns[2], 1e-12); // o_custkey: the 40 customers
        assertEquals(1, columns[5], 1e-12); // c_nationkey
        assertEquals(1, model.groups(model.rows(joined), List.of(new Expr.Column(5, SqlType.BIGINT)),
                joined.fields(), columns));
    }

    private static Expr firstLetter(Expr e) {
        return new Expr.Call(ScalarFunction.SUBSTR, List.of(e, new Expr.Literal(1, SqlType.INT), new Expr.Literal(1, SqlType.INT)),
                SqlType.STRING);
    }

    private static Expr inList(Expr e, String... items) {
        return new Expr.InList(e, java.util.Arrays.stream(items).map(CardinalityModelTest::text).toList(), false);
    }

    /**
     * An expression of one sampled column takes the values it takes over the sample (scaled to the
     * table by Duj1), and a condition on it keeps the share of the sample it holds on: the first
     * letters of the priorities are 1, 2 and 5; IN ('1', '2') holds on 51 of the 100 sampled.
     */
    @Test
    void anExpressionOfASampledColumnIsTriedOnTheSample() {
        List<Field> f = orders.fields();
        assertEquals(3, model.groups(1500, List.of(firstLetter(col(1))), f));
        Expr firstTwo = inList(firstLetter(col(1)), "1", "2");
        assertEquals(0.51, model.share(firstTwo, f, RowEstimates.Ranges.NONE), 1e-12);
        // a scan under that condition: its priorities are a share of the five, their first letters two
        RelNode.Scan some = new RelNode.Scan(ORDERS, "o", fields("o", ORDERS), firstTwo);
        CardinalityModel filtered = CardinalityModel.of(LAYOUTS, List.of(some, customer), n -> null);
        assertEquals(765, filtered.rows(some));
        assertEquals(5 * 0.51, filtered.columns(some)[1], 1e-12);
        RelNode.Aggregate byLetter = new RelNode.Aggregate(some, List.of(firstLetter(col(1))), List.of(),
                List.of(new Field(null, "letter", SqlType.STRING)));
        assertEquals(2, filtered.rows(byLetter));
        // a sample says nothing of NULLs: IS NULL on it is not tried
        assertEquals(0.25, model.share(new Expr.IsNull(firstLetter(col(1)), false), f, RowEstimates.Ranges.NONE), 1e-12);
    }

    /** Duj1: no value seen once, the sample saw them all; every value once, every row its own; between, in proportion. */
    @Test
    void distinctValuesOfASampleScaleByDuj1() {
        assertEquals(3, SampledValues.duj1(100, 3, 0, 1_000_000), 1e-12);
        assertEquals(1_000_000, SampledValues.duj1(100, 100, 100, 1_000_000), 1e-9);
        assertEquals(100 * 60 / (100 - 40 + 40 * 100 / 10_000.0), SampledValues.duj1(100, 60, 40, 10_000), 1e-9);
    }

    /** lineitem: 1,000 rows over 200 parts, quantities from 1.00 to 50.00 (stored unscaled). */
    private static final TableInfo LINEITEM = new TableInfo("default", "lineitem", List.of(
            new ResultColumn("l_partkey", SqlType.BIGINT), new ResultColumn("l_quantity", SqlType.decimal(15, 2))),
            List.of("l_partkey"), "lineitem", Map.of(), "");

    /**
     * A stored column compared with what an aggregate subquery computes per group, decorrelated into
     * a join (TPC-H Q17's {@code l_quantity < 0.2 * avg(l_quantity)}): the subquery's value taken at
     * its mean, an average the middle of the column's span (25.50), a sum that times a group's rows.
     */
    @Test
    void aColumnAgainstAnAggregatesValueKeepsItsSpanOnThatSide() {
        TableLayouts layouts = quantities();
        RelNode.Scan outer = new RelNode.Scan(LINEITEM, "l", fields("l", LINEITEM), null);
        RelNode.Scan inner = new RelNode.Scan(LINEITEM, "l2", fields("l2", LINEITEM), null);
        CardinalityModel m = CardinalityModel.of(layouts, List.of(outer, inner), n -> null);
        Expr quantity = new Expr.Column(1, SqlType.decimal(15, 2));
        List<org.oooengine.core.sql.expr.AggregateCall> calls = List.of(
                new org.oooengine.core.sql.expr.AggregateCall(org.oooengine.core.sql.expr.AggregateCall.Kind.AVG, quantity,
                        false, SqlType.decimal(19, 6)),
                new org.oooengine.core.sql.expr.AggregateCall(org.oooengine.core.sql.expr.AggregateCall.Kind.SUM, quantity,
                        false, SqlType.decimal(25, 2)));
        RelNode.Aggregate perPart = new RelNode.Aggregate(inner, List.of(new Expr.Column(0, SqlType.BIGINT)), calls,
                List.of(new Field("l2", "l_partkey", SqlType.BIGINT), new Field(null, "avg", SqlType.decimal(19, 6)),
                        new Field(null, "sum", SqlType.decimal(25, 2))));
        double[] means = m.means(perPart);
        assertEquals(25.5, means[1], 1e-9);
        assertEquals(5 * 25.5, means[2], 1e-9); // 1,000 rows in 200 groups
        Expr fifth = new Expr.Call(ScalarFunction.MULTIPLY, List.of(new Expr.Literal(new java.math.BigDecimal("0.2"),
                SqlType.decimal(1, 1)), new Expr.Column(1, SqlType.decimal(19, 6))), SqlType.decimal(21, 7));
        RelNode.Project value = new RelNode.Project(perPart, List.of(new Expr.Column(0, SqlType.BIGINT), fifth),
                List.of(new Field("l2", "l_partkey", SqlType.BIGINT), new Field(null, "$subquery", SqlType.decimal(21, 7))));
        assertEquals(5.1, m.means(value)[1], 1e-9);
        RelNode.Join joined = new RelNode.Join(outer, value, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        Expr below = new Expr.Call(ScalarFunction.LT, List.of(quantity, new Expr.Column(3, SqlType.decimal(21, 7))),
                SqlType.BOOLEAN);
        RelNode.Filter few = new RelNode.Filter(joined, below);
        // 1.00 to 5.10 of 1.00 to 50.00: 410 of 4,901 stored values
        assertEquals(RowEstimates.kept(m.rows(joined), 410.0 / 4901), m.rows(few));
        // the same the other way round; without the value's mean, a quarter
        Expr above = new Expr.Call(ScalarFunction.GT, List.of(new Expr.Column(3, SqlType.decimal(21, 7)), quantity),
                SqlType.BOOLEAN);
        assertEquals(RowEstimates.kept(m.rows(joined), 410.0 / 4901), m.rows(new RelNode.Filter(joined, above)));
        RelNode.Join unvalued = new RelNode.Join(outer, inner, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        assertEquals(RowEstimates.kept(m.rows(unvalued), 0.25), m.rows(new RelNode.Filter(unvalued, below)));
        // the comparison as the join's residual, as a node's hash join runs it (TPC-H Q20): the same share
        RelNode.Join residual = new RelNode.Join(outer, value, JoinKind.INNER, new int[] {0}, new int[] {0}, below);
        assertEquals(RowEstimates.kept(m.rows(joined), 410.0 / 4901), m.rows(residual));
    }

    /** 1,000 lineitems of 200 parts, quantities 1.00 to 50.00. */
    private static TableLayouts quantities() {
        return new Statistics() {
            @Override
            public OptionalLong rows(TableInfo table) {
                return OptionalLong.of(1000);
            }

            @Override
            public long[] range(TableInfo table, int column) {
                return column == 1 ? new long[] {100, 5000} : null;
            }

            @Override
            public double distinct(TableInfo table, int column) {
                return column == 0 ? 200 : 50;
            }
        };
    }

    /**
     * TPC-H Q18's orders of more than 300 units: a sum over a group of five quantities (1.00 to
     * 50.00, even) has a mean of 127.50 and a spread of root 5 times 14.14; a comparison with a
     * constant keeps a normal distribution's share on its side, at least {@link ComputedValues#MIN_TAIL}.
     */
    @Test
    void anAggregateAgainstAConstantKeepsANormalTailOfItsGroups() {
        RelNode.Scan lines = new RelNode.Scan(LINEITEM, "l", fields("l", LINEITEM), null);
        CardinalityModel m = CardinalityModel.of(quantities(), List.of(lines), n -> null);
        SqlType sumType = SqlType.decimal(25, 2);
        RelNode.Aggregate perPart = new RelNode.Aggregate(lines, List.of(new Expr.Column(0, SqlType.BIGINT)),
                List.of(new org.oooengine.core.sql.expr.AggregateCall(org.oooengine.core.sql.expr.AggregateCall.Kind.SUM,
                        new Expr.Column(1, SqlType.decimal(15, 2)), false, sumType)),
                List.of(new Field("l", "l_partkey", SqlType.BIGINT), new Field(null, "sum", sumType)));
        assertEquals(200, m.rows(perPart));
        assertEquals(Math.sqrt(5) * 49 / Math.sqrt(12), m.computed(perPart).spreads()[1], 1e-9);
        java.util.function.BiFunction<ScalarFunction, String, Long> kept = (f, bound) -> m.rows(new RelNode.Filter(perPart,
                new Expr.Call(f, List.of(new Expr.Column(1, sumType), new Expr.Literal(new java.math.BigDecimal(bound), sumType)),
                        SqlType.BOOLEAN)));
        assertEquals(1, kept.apply(ScalarFunction.GT, "300.00")); // 5.5 spreads above: the least share
        assertEquals(100, kept.apply(ScalarFunction.GT, "127.50"));
        assertEquals(Math.round(200 * ComputedValues.upperTail((127.5 - 100) / (Math.sqrt(5) * 49 / Math.sqrt(12)))),
                kept.apply(ScalarFunction.LT, "100.00"));
        assertEquals(0.5, ComputedValues.upperTail(0), 1e-7);
        assertEquals(0.02275, ComputedValues.upperTail(2), 1e-5);
        assertEquals(0.97725, ComputedValues.upperTail(-2), 1e-5);
    }

    /**
     * TPC-H Q09's lineitem joined with partsupp on {@code (partkey, suppkey)}: 6,000 lines of 2,000
     * parts and 100 suppliers, 800 partsupp rows. Independent keys would make 200,000 combinations
     * and keep 800 lines; a side's combinations are at most the other table's rows (a foreign key of
     * two columns), so every line finds its partsupp row, and a tenth of partsupp keeps a tenth of them.
     */
    @Test
    void aJoinOnTwoKeysCountsTheirCombinationsAsRows() {
        TableInfo lineitem = table("lineitem", "l_partkey", "l_suppkey");
        TableInfo partsupp = table("partsupp", "ps_partkey", "ps_suppkey");
        TableLayouts layouts = new Statistics() {
            @Override
            public OptionalLong rows(TableInfo table) {
                return OptionalLong.of(table == lineitem ? 6000 : 800);
            }

            @Override
            public double distinct(TableInfo table, int column) {
                return column == 0 ? 2000 : 100;
            }
        };
        RelNode.Scan l = new RelNode.Scan(lineitem, "l", fields("l", lineitem), null);
        RelNode.Scan ps = new RelNode.Scan(partsupp, "ps", fields("ps", partsupp), null);
        TableInfo part = table("part", "p_partkey");
        CardinalityModel m = CardinalityModel.of(layouts, List.of(l, ps, new RelNode.Scan(part, "p", fields("p", part), null)),
                n -> null);
        PipelineRows.Side allOfPartsupp = new PipelineRows.Side(ps.fields(), 800, 800, m.base(ps.fields()));
        assertEquals(6000, m.joined(JoinKind.INNER, 6000, l.fields(), m.base(l.fields()), List.of(0, 1),
                allOfPartsupp, List.of(0, 1), null));
        PipelineRows.Side tenth = new PipelineRows.Side(ps.fields(), 80, 800, new double[] {80, 55});
        assertEquals(600, m.joined(JoinKind.INNER, 6000, l.fields(), m.base(l.fields()), List.of(0, 1),
                tenth, List.of(0, 1), null));
        // partsupp probing lineitem: the same rows
        PipelineRows.Side allOfLineitem = new PipelineRows.Side(l.fields(), 6000, 6000, m.base(l.fields()));
        assertEquals(6000, m.joined(JoinKind.INNER, 800, ps.fields(), m.base(ps.fields()), List.of(0, 1),
                allOfLineitem, List.of(0, 1), null));
        // keys read from two tables (part's key and partsupp's supplier), part's equated with partsupp's
        m.joined(JoinKind.INNER, 800, ps.fields(), m.base(ps.fields()), List.of(0),
                new PipelineRows.Side(List.of(new Field("p", "p_partkey", SqlType.BIGINT)), 200, 2000, new double[] {200}),
                List.of(0), null);
        List<Field> partAndSupplier = List.of(new Field("p", "p_partkey", SqlType.BIGINT), ps.fields().get(1));
        PipelineRows.Side greenParts = new PipelineRows.Side(partAndSupplier, 80, 800, new double[] {20, 55});
        assertEquals(600, m.joined(JoinKind.INNER, 6000, l.fields(), m.base(l.fields()), List.of(0, 1),
                greenParts, List.of(0, 1), null));
        // a table whose keys hold 5 values each cannot hold all of lineitem's: no more than its 20 rows match
        List<Field> few = List.of(new Field("f", "f_partkey", SqlType.BIGINT), new Field("f", "f_suppkey", SqlType.BIGINT));
        CardinalityModel withFew = CardinalityModel.of(new Statistics() {
            @Override
            public OptionalLong rows(TableInfo table) {
                return OptionalLong.of(table == lineitem ? 6000 : 20);
            }

            @Override
            public double distinct(TableInfo table, int column) {
                return table == lineitem ? (column == 0 ? 2000 : 100) : 5;
            }
        }, List.of(l, new RelNode.Scan(table("few", "f_partkey", "f_suppkey"), "f", few, null)), n -> null);
        assertEquals(20, withFew.joined(JoinKind.INNER, 6000, l.fields(), withFew.base(l.fields()), List.of(0, 1),
                new PipelineRows.Side(few, 20, 20, new double[] {5, 5}), List.of(0, 1), null));
    }

    /** Tables on 3 nodes, partitioned apart, of no known size in bytes; each test says their rows and columns. */
    private abstract static class Statistics implements TableLayouts {
        @Override
        public OptionalLong bytes(TableInfo table) {
            return OptionalLong.empty();
        }

        @Override
        public int nodes(TableInfo table) {
            return 3;
        }

        @Override
        public boolean partitionedAlike(TableInfo a, TableInfo b) {
            return false;
        }
    }

    private static TableInfo table(String name, String... columns) {
        List<ResultColumn> cols = java.util.Arrays.stream(columns)
                .map(c -> new ResultColumn(c, c.endsWith("date") ? SqlType.DATE : c.endsWith("key") ? SqlType.BIGINT
                        : SqlType.STRING)).toList();
        return new TableInfo("default", name, cols, List.of(columns[0]), name, Map.of(), "");
    }

    private static List<Field> fields(String alias, TableInfo t) {
        return t.columns().stream().map(c -> new Field(alias, c.name(), c.type())).toList();
    }

    private static Expr col(int i) {
        return new Expr.Column(i, SqlType.STRING);
    }

    private static Expr text(String s) {
        return new Expr.Literal(s, SqlType.STRING);
    }

    private static Expr eq(Expr a, Expr b) {
        return new Expr.Call(ScalarFunction.EQ, List.of(a, b), SqlType.BOOLEAN);
    }
}

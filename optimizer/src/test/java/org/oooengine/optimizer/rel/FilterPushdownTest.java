package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Generator;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.expr.WindowCall;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Where conditions on derived tables end up: in the scans under projections, unions, GROUP BY keys,
 * window partitions and the kept side of joins; above what they cannot cross; and an input of a
 * union that a constant condition rules out gone.
 */
class FilterPushdownTest {
    /** sales(customer, year, amount) */
    private static final TableInfo SALES = new TableInfo("default", "sales", List.of(
            new ResultColumn("customer", SqlType.BIGINT), new ResultColumn("year", SqlType.INT),
            new ResultColumn("amount", SqlType.DOUBLE)), List.of("customer"), "sales", Map.of(), "");

    @Test
    void tagAndGroupKeyOfAViewReachOneInputsScan() {
        // SELECT * FROM (SELECT customer, year, sum(amount), 's' FROM sales GROUP BY customer, year
        //                UNION ALL the same tagged 'c') v WHERE tag = 's' AND year = 2002
        RelNode view = new RelNode.Union(List.of(channel("s"), channel("c")), channel("s").fields());
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(view,
                and(eq(col(3, SqlType.STRING), text("s")), eq(col(1, SqlType.INT), number(2002)))));

        RelNode.Union union = assertInstanceOf(RelNode.Union.class, plan);
        assertEquals(1, union.inputs().size(), "the 'c' input cannot match");
        RelNode.Project tagged = assertInstanceOf(RelNode.Project.class, union.inputs().get(0));
        RelNode.Aggregate groups = assertInstanceOf(RelNode.Aggregate.class, tagged.input());
        RelNode.Scan scan = assertInstanceOf(RelNode.Scan.class, groups.input());
        assertEquals(eq(col(1, SqlType.INT), number(2002)), scan.filter());
    }

    @Test
    void conditionOnAnAggregateStaysAboveIt() {
        RelNode.Aggregate groups = perCustomer(scan());
        Expr bigSpender = new Expr.Call(ScalarFunction.GT, List.of(col(1, SqlType.DOUBLE), number(100)), SqlType.BOOLEAN);
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(groups, and(bigSpender, eq(col(0, SqlType.BIGINT), number(7)))));

        RelNode.Filter above = assertInstanceOf(RelNode.Filter.class, plan);
        assertEquals(bigSpender, above.condition());
        RelNode.Scan scan = assertInstanceOf(RelNode.Scan.class, ((RelNode.Aggregate) above.input()).input());
        assertEquals(eq(col(0, SqlType.BIGINT), number(7)), scan.filter());
    }

    @Test
    void onlyThePreservedSideOfALeftJoinIsFiltered() {
        RelNode join = new RelNode.Join(scan(), scan(), JoinKind.LEFT, new int[] {0}, new int[] {0}, null);
        Expr leftYear = eq(col(1, SqlType.INT), number(2001));
        Expr rightYear = eq(col(4, SqlType.INT), number(2002));
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(join, and(leftYear, rightYear)));

        RelNode.Filter above = assertInstanceOf(RelNode.Filter.class, plan);
        assertEquals(rightYear, above.condition(), "a null-extended row must still meet it");
        RelNode.Join pushed = assertInstanceOf(RelNode.Join.class, above.input());
        assertEquals(leftYear, ((RelNode.Scan) pushed.left()).filter());
        assertEquals(null, ((RelNode.Scan) pushed.right()).filter());
    }

    @Test
    void innerJoinSidesGetTheirOwnConditionsRenumbered() {
        RelNode join = new RelNode.Join(scan(), scan(), JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(join, eq(col(4, SqlType.INT), number(2002))));

        RelNode.Join pushed = assertInstanceOf(RelNode.Join.class, plan);
        assertEquals(eq(col(1, SqlType.INT), number(2002)), ((RelNode.Scan) pushed.right()).filter());
    }

    @Test
    void windowPartitionKeysPassButOrderKeysDoNot() {
        WindowCall rank = WindowCall.ranking(WindowCall.Kind.RANK);
        List<Field> fields = new java.util.ArrayList<>(scan().fields());
        fields.add(new Field(null, "rank", SqlType.INT));
        RelNode window = new RelNode.Window(scan(), List.of(col(0, SqlType.BIGINT)),
                List.of(new WindowCall.OrderKey(col(1, SqlType.INT), true, true)), List.of(rank), fields);
        Expr customer = eq(col(0, SqlType.BIGINT), number(7));
        Expr year = eq(col(1, SqlType.INT), number(2002));
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(window, and(customer, year)));

        RelNode.Filter above = assertInstanceOf(RelNode.Filter.class, plan);
        assertEquals(year, above.condition(), "the rank of the other years' rows depends on them");
        assertEquals(customer, ((RelNode.Scan) ((RelNode.Window) above.input()).input()).filter());
    }

    @Test
    void aKeyConditionOfThePreservedSideFiltersTheOtherSide() {
        // s LEFT JOIN w ON w.year = s.year, with s.year = 2000: only w's rows of 2000 can match
        Expr year2000 = eq(col(1, SqlType.INT), number(2000));
        RelNode join = new RelNode.Join(new RelNode.Filter(scan(), year2000), scan(), JoinKind.LEFT,
                new int[] {1}, new int[] {1}, null);
        RelNode.Join pushed = assertInstanceOf(RelNode.Join.class, FilterPushdown.apply(join));
        assertEquals(year2000, ((RelNode.Scan) pushed.left()).filter());
        assertEquals(year2000, ((RelNode.Scan) pushed.right()).filter());
    }

    @Test
    void noKeyConditionReachesThePreservedSideOrTheBuildOfNotIn() {
        Expr year2000 = eq(col(1, SqlType.INT), number(2000));
        for (JoinKind kind : List.of(JoinKind.LEFT, JoinKind.ANTI_NULL_AWARE)) {
            RelNode join = new RelNode.Join(scan(), new RelNode.Filter(scan(), year2000), kind,
                    new int[] {1}, new int[] {1}, null);
            RelNode.Join pushed = assertInstanceOf(RelNode.Join.class, FilterPushdown.apply(join));
            assertEquals(null, ((RelNode.Scan) pushed.left()).filter(), kind + " keeps every left row");
        }
        RelNode notIn = new RelNode.Join(new RelNode.Filter(scan(), year2000), scan(), JoinKind.ANTI_NULL_AWARE,
                new int[] {1}, new int[] {1}, null);
        RelNode.Join pushed = assertInstanceOf(RelNode.Join.class, FilterPushdown.apply(notIn));
        assertEquals(null, ((RelNode.Scan) pushed.right()).filter(), "a null on the right empties NOT IN");
    }

    @Test
    void aLateralViewLetsConditionsOnItsInputRowsPass() {
        Generator explode = new Generator(Generator.Kind.EXPLODE,
                new Expr.Call(ScalarFunction.ARRAY, List.of(col(2, SqlType.DOUBLE)), SqlType.array(SqlType.DOUBLE)), true);
        List<Field> fields = new java.util.ArrayList<>(scan().fields());
        fields.add(new Field("t", "v", SqlType.DOUBLE));
        Expr customer = eq(col(0, SqlType.BIGINT), number(7));
        Expr generated = new Expr.Call(ScalarFunction.GT, List.of(col(3, SqlType.DOUBLE), number(1)), SqlType.BOOLEAN);
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(new RelNode.Generate(scan(), explode, fields),
                and(customer, generated)));

        RelNode.Filter above = assertInstanceOf(RelNode.Filter.class, plan);
        assertEquals(generated, above.condition());
        assertEquals(customer, ((RelNode.Scan) ((RelNode.Generate) above.input()).input()).filter());
    }

    @Test
    void aComparisonWithAScalarSubqueryFiltersTheOneTableItReads() {
        // FROM s a JOIN s b ON a.customer = b.customer WHERE b.year = (SELECT max(year) FROM s)
        RelNode latest = new RelNode.SingleRow(new RelNode.Aggregate(scan(), List.of(),
                List.of(new AggregateCall(AggregateCall.Kind.MAX, col(1, SqlType.INT), false, SqlType.INT)),
                List.of(new Field(null, "latest", SqlType.INT))));
        RelNode pair = new RelNode.Join(scan(), scan(), JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        RelNode crossed = new RelNode.Join(pair, latest, JoinKind.CROSS, new int[0], new int[0], null);

        Expr onRight = eq(col(4, SqlType.INT), col(6, SqlType.INT));
        RelNode.Join right = assertInstanceOf(RelNode.Join.class, FilterPushdown.apply(new RelNode.Filter(crossed, onRight)));
        assertInstanceOf(RelNode.Scan.class, right.left());
        RelNode.Filter there = assertInstanceOf(RelNode.Filter.class, right.right());
        assertEquals(eq(col(1, SqlType.INT), col(3, SqlType.INT)), there.condition());
        assertEquals(crossed.fields(), right.fields());

        Expr onLeft = eq(col(1, SqlType.INT), col(6, SqlType.INT));
        RelNode.Project left = assertInstanceOf(RelNode.Project.class, FilterPushdown.apply(new RelNode.Filter(crossed, onLeft)));
        assertEquals(crossed.fields(), left.fields());
        assertEquals(List.of(col(0, SqlType.BIGINT), col(1, SqlType.INT), col(2, SqlType.DOUBLE), col(4, SqlType.BIGINT),
                col(5, SqlType.INT), col(6, SqlType.DOUBLE), col(3, SqlType.INT)), left.exprs());
        RelNode.Join joined = assertInstanceOf(RelNode.Join.class, left.input());
        assertEquals(eq(col(1, SqlType.INT), col(3, SqlType.INT)),
                assertInstanceOf(RelNode.Filter.class, joined.left()).condition());
    }

    @Test
    void aConditionThatNeverHoldsLeavesNoRows() {
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(perCustomer(scan()), eq(text("a"), text("b"))));
        RelNode.Values none = assertInstanceOf(RelNode.Values.class, plan);
        assertTrue(none.rows().isEmpty());
        assertEquals(2, none.fields().size());
    }

    @Test
    void anOrThatCannotPassAGroupByFiltersItsInputByWhatItSaysOfTheKeys() {
        // (year = 2001 AND total > 0) OR year = 2002 over GROUP BY customer, year
        RelNode groups = channel("s");
        Expr firstYearPositive = and(eq(col(1, SqlType.INT), number(2001)), above(col(2, SqlType.DOUBLE), 0));
        Expr either = new Expr.Or(List.of(firstYearPositive, eq(col(1, SqlType.INT), number(2002))));
        RelNode plan = FilterPushdown.apply(new RelNode.Filter(groups, either));

        RelNode.Project tagged = assertInstanceOf(RelNode.Project.class, plan);
        RelNode.Filter kept = assertInstanceOf(RelNode.Filter.class, tagged.input());
        assertEquals(either, kept.condition(), "the OR itself still decides each group");
        RelNode.Scan scan = assertInstanceOf(RelNode.Scan.class, ((RelNode.Aggregate) kept.input()).input());
        assertEquals(new Expr.InList(col(1, SqlType.INT), List.of(number(2001), number(2002)), false), scan.filter(),
                "an OR of one column's values is read as IN, a set of its values");
    }

    @Test
    void usesOfAViewFilteredApartAreComputedAlikeUnderTheOrOfTheirFilters() {
        // TPC-DS Q04's shape: the view of each channel's totals per customer and year, read as s 2001
        // (positive totals only), s 2002, c 2001 and c 2002, joined by customer
        Expr positive = above(col(2, SqlType.DOUBLE), 0);
        List<RelNode> uses = List.of(
                use("s1", and(eq(col(3, SqlType.STRING), text("s")), eq(col(1, SqlType.INT), number(2001)), positive)),
                use("s2", and(eq(col(3, SqlType.STRING), text("s")), eq(col(1, SqlType.INT), number(2002)))),
                use("c1", and(eq(col(3, SqlType.STRING), text("c")), eq(col(1, SqlType.INT), number(2001)), positive)),
                use("c2", and(eq(col(3, SqlType.STRING), text("c")), eq(col(1, SqlType.INT), number(2002)))));
        RelNode plan = uses.get(0);
        for (RelNode u : uses.subList(1, uses.size())) {
            plan = new RelNode.Join(plan, u, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        }
        List<RelNode.Filter> pushed = new java.util.ArrayList<>();
        RelNode at = FilterPushdown.apply(plan);
        while (at instanceof RelNode.Join j) {
            pushed.add(0, assertInstanceOf(RelNode.Filter.class, j.right()));
            at = j.left();
        }
        pushed.add(0, assertInstanceOf(RelNode.Filter.class, at));
        Shapes shapes = new Shapes();
        for (int i = 0; i < uses.size(); i++) {
            assertEquals(((RelNode.Filter) uses.get(i)).condition(), pushed.get(i).condition(), "each use keeps its own filter");
            assertEquals(shapes.of(pushed.get(0).input()), shapes.of(pushed.get(i).input()), "all uses alike: computed once");
        }
        RelNode.Union union = assertInstanceOf(RelNode.Union.class, ((RelNode.Project) pushed.get(0).input()).input());
        assertEquals(2, union.inputs().size());
        Expr bothYears = new Expr.InList(col(1, SqlType.INT), List.of(number(2001), number(2002)), false);
        for (RelNode channel : union.inputs()) {
            RelNode.Filter groups = assertInstanceOf(RelNode.Filter.class, ((RelNode.Project) channel).input());
            assertEquals(bothYears, ((RelNode.Scan) ((RelNode.Aggregate) groups.input()).input()).filter(),
                    "each channel's sales read once, for both years");
        }
    }

    @Test
    void aChannelNoFilteredUseReadsIsLeftOut() {
        RelNode plan = new RelNode.Join(use("a", and(eq(col(3, SqlType.STRING), text("s")), eq(col(1, SqlType.INT), number(2001)))),
                use("b", and(eq(col(3, SqlType.STRING), text("s")), eq(col(1, SqlType.INT), number(2002)))),
                JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        RelNode.Join pushed = assertInstanceOf(RelNode.Join.class, FilterPushdown.apply(plan));
        RelNode.Filter left = assertInstanceOf(RelNode.Filter.class, pushed.left());
        assertEquals(eq(col(1, SqlType.INT), number(2001)), left.condition(), "the tag both share is decided below");
        RelNode.Union union = assertInstanceOf(RelNode.Union.class, ((RelNode.Project) left.input()).input());
        assertEquals(1, union.inputs().size(), "no use reads the 'c' channel");
    }

    /** The view of both channels under {@code alias}, filtered by {@code condition}. */
    private static RelNode use(String alias, Expr condition) {
        RelNode view = new RelNode.Union(List.of(channel("s"), channel("c")), channel("s").fields());
        List<Expr> columns = new java.util.ArrayList<>();
        for (int i = 0; i < view.fields().size(); i++) {
            columns.add(col(i, view.fields().get(i).type()));
        }
        return new RelNode.Filter(new RelNode.Project(view, columns,
                view.fields().stream().map(f -> f.withQualifier(alias)).toList()), condition);
    }

    private static Expr above(Expr value, int n) {
        return new Expr.Call(ScalarFunction.GT, List.of(value, new Expr.Literal((double) n, SqlType.DOUBLE)), SqlType.BOOLEAN);
    }

    /** GROUP BY customer, year; sum(amount); tag. */
    private static RelNode channel(String tag) {
        RelNode.Aggregate groups = new RelNode.Aggregate(scan(), List.of(col(0, SqlType.BIGINT), col(1, SqlType.INT)),
                List.of(new AggregateCall(AggregateCall.Kind.SUM, col(2, SqlType.DOUBLE), false, SqlType.DOUBLE)),
                List.of(new Field(null, "customer", SqlType.BIGINT), new Field(null, "year", SqlType.INT),
                        new Field(null, "total", SqlType.DOUBLE)));
        List<Field> fields = new java.util.ArrayList<>(groups.fields());
        fields.add(new Field(null, "tag", SqlType.STRING));
        return new RelNode.Project(groups, List.of(col(0, SqlType.BIGINT), col(1, SqlType.INT), col(2, SqlType.DOUBLE),
                text(tag)), fields);
    }

    private static RelNode.Aggregate perCustomer(RelNode input) {
        return new RelNode.Aggregate(input, List.of(col(0, SqlType.BIGINT)),
                List.of(new AggregateCall(AggregateCall.Kind.SUM, col(2, SqlType.DOUBLE), false, SqlType.DOUBLE)),
                List.of(new Field(null, "customer", SqlType.BIGINT), new Field(null, "total", SqlType.DOUBLE)));
    }

    private static RelNode.Scan scan() {
        return new RelNode.Scan(SALES, "s", SALES.columns().stream().map(c -> new Field("s", c.name(), c.type())).toList(), null);
    }

    private static Expr col(int i, SqlType type) {
        return new Expr.Column(i, type);
    }

    private static Expr text(String s) {
        return new Expr.Literal(s, SqlType.STRING);
    }

    private static Expr number(int n) {
        return new Expr.Literal(n, SqlType.INT);
    }

    private static Expr eq(Expr a, Expr b) {
        return new Expr.Call(ScalarFunction.EQ, List.of(a, b), SqlType.BOOLEAN);
    }

    private static Expr and(Expr... terms) {
        return new Expr.And(List.of(terms));
    }
}

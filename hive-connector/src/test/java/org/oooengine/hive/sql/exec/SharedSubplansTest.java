package org.oooengine.hive.sql.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.Period;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.FilterPushdown;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Subplans alike — same operators, tables, expressions, columns read — are held once, whatever
 * their columns are named; a constant or a column read apart makes them two. Only the outermost
 * alike subplan is held: what is inside it is computed once with it. Uses of one subplan filtered
 * apart are pushed the OR of their filters, so are held once too, each filtering what it replays.
 */
class SharedSubplansTest {
    private static final TableInfo SALES = new TableInfo("default", "sales", List.of(
            new ResultColumn("cust", SqlType.INT), new ResultColumn("amount", SqlType.DOUBLE)),
            List.of("cust"), "sales", Map.of(), "");
    private static final TableInfo YEARLY = new TableInfo("default", "yearly", List.of(
            new ResultColumn("cust", SqlType.INT), new ResultColumn("year", SqlType.INT),
            new ResultColumn("amount", SqlType.DOUBLE)), List.of("cust"), "yearly", Map.of(), "");

    private final Map<RelNode.Scan, BitSet> usage = new IdentityHashMap<>();

    @Test
    void aSubplanOccurringTwiceAlikeIsHeldOnceWhateverItsColumnsAreNamed() {
        RelNode.Scan a = scan("a", 0, 1);
        RelNode.Scan b = scan("b", 0, 1);
        RelNode.Filter left = new RelNode.Filter(a, above(1, 5.0));
        RelNode.Filter right = new RelNode.Filter(b, above(1, 5.0));
        RelNode.Join join = new RelNode.Join(left, right, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        SharedSubplans shared = SharedSubplans.of(join, usage);
        assertTrue(shared.key(left) >= 0);
        assertEquals(shared.key(left), shared.key(right));
        assertEquals(2, shared.uses(shared.key(left)));
        assertEquals(-1, shared.key(join));
        assertEquals(-1, shared.key(a), "inside the held subplan: computed once with it");
    }

    @Test
    void aDifferentConstantOrOtherColumnsReadMakeTwoSubplans() {
        RelNode.Filter five = new RelNode.Filter(scan("a", 0, 1), above(1, 5.0));
        RelNode.Filter six = new RelNode.Filter(scan("b", 0, 1), above(1, 6.0));
        SharedSubplans constants = SharedSubplans.of(
                new RelNode.Join(five, six, JoinKind.INNER, new int[] {0}, new int[] {0}, null), usage);
        assertEquals(-1, constants.key(five));
        assertEquals(-1, constants.key(six));

        RelNode.Scan keysOnly = scan("a", 0);
        RelNode.Scan keysAndAmounts = scan("b", 0, 1);
        SharedSubplans columns = SharedSubplans.of(
                new RelNode.Join(keysOnly, keysAndAmounts, JoinKind.INNER, new int[] {0}, new int[] {0}, null), usage);
        assertEquals(-1, columns.key(keysOnly), "the coordinator's scans read what is read of them, no more");
    }

    @Test
    void anIntervalInTheFiltersMakesNoDifference() {
        // TPC-H Q15's revenue view, read twice: l_shipdate < date '1996-01-01' + interval '3' month
        RelNode.Filter first = new RelNode.Filter(scan("a", 0, 1), before(Period.ofMonths(3)));
        RelNode.Filter again = new RelNode.Filter(scan("b", 0, 1), before(Period.ofMonths(3)));
        RelNode.Filter longer = new RelNode.Filter(scan("c", 0, 1), before(Period.ofMonths(4)));
        RelNode.Union union = new RelNode.Union(List.of(first, again, longer), first.fields());
        SharedSubplans shared = SharedSubplans.of(union, usage);
        assertTrue(shared.key(first) >= 0, "an interval is a value, not an object unlike any other");
        assertEquals(shared.key(first), shared.key(again));
        assertEquals(-1, shared.key(longer));
    }

    @Test
    void aSubplanInsideAHeldOneAndOutsideItIsHeldToo() {
        RelNode.Filter inner = new RelNode.Filter(scan("a", 0, 1), above(1, 5.0));
        RelNode.Limit first = new RelNode.Limit(inner, 0, 1);
        RelNode.Limit again = new RelNode.Limit(new RelNode.Filter(scan("b", 0, 1), above(1, 5.0)), 0, 1);
        RelNode.Filter alone = new RelNode.Filter(scan("c", 0, 1), above(1, 5.0));
        RelNode.Union union = new RelNode.Union(List.of(first, again, alone), inner.fields());
        SharedSubplans shared = SharedSubplans.of(union, usage);
        assertEquals(2, shared.uses(shared.key(first)));
        assertEquals(2, shared.uses(shared.key(inner)), "once in the held limit, once alone");
    }

    @Test
    void usesOfAGroupingFilteredApartAreHeldOnceUnderTheOrOfTheirFilters() {
        // WITH t AS (SELECT cust, year, sum(amount) FROM yearly GROUP BY cust, year)
        // SELECT ... FROM t a, t b WHERE a.cust = b.cust AND a.year = 2001 AND b.year = 2002
        RelNode first = new RelNode.Filter(totals("a"), year(2001));
        RelNode second = new RelNode.Filter(totals("b"), year(2002));
        RelNode plan = FilterPushdown.apply(new RelNode.Join(first, second, JoinKind.INNER, new int[] {0}, new int[] {0}, null));

        RelNode.Join join = (RelNode.Join) plan;
        RelNode.Filter a = (RelNode.Filter) join.left();
        RelNode.Filter b = (RelNode.Filter) join.right();
        assertEquals(year(2001), a.condition(), "each use filters the rows replayed to it");
        assertEquals(year(2002), b.condition());
        SharedSubplans shared = SharedSubplans.of(plan, ColumnUsage.of(plan));
        assertTrue(shared.key(a.input()) >= 0);
        assertEquals(shared.key(a.input()), shared.key(b.input()));
        assertEquals(2, shared.uses(shared.key(a.input())));
        RelNode.Aggregate groups = (RelNode.Aggregate) ((RelNode.Project) a.input()).input();
        assertEquals(new Expr.InList(new Expr.Column(1, SqlType.INT), List.of(new Expr.Literal(2001, SqlType.INT),
                new Expr.Literal(2002, SqlType.INT)), false), ((RelNode.Scan) groups.input()).filter(),
                "the sales of both years scanned once");
    }

    /** The totals per customer and year of the yearly table, under {@code alias}. */
    private static RelNode totals(String alias) {
        RelNode.Scan scan = new RelNode.Scan(YEARLY, "y", YEARLY.columns().stream()
                .map(c -> new Field("y", c.name(), c.type())).toList(), null);
        RelNode.Aggregate groups = new RelNode.Aggregate(scan, List.of(new Expr.Column(0, SqlType.INT),
                new Expr.Column(1, SqlType.INT)), List.of(new AggregateCall(AggregateCall.Kind.SUM,
                new Expr.Column(2, SqlType.DOUBLE), false, SqlType.DOUBLE)), List.of(new Field(null, "cust", SqlType.INT),
                new Field(null, "year", SqlType.INT), new Field(null, "total", SqlType.DOUBLE)));
        return new RelNode.Project(groups, List.of(new Expr.Column(0, SqlType.INT), new Expr.Column(1, SqlType.INT),
                new Expr.Column(2, SqlType.DOUBLE)), groups.fields().stream().map(f -> f.withQualifier(alias)).toList());
    }

    /** {@code amount < date '2024-01-01' + interval}, an amount standing in for a date. */
    private static Expr before(Period interval) {
        Expr end = new Expr.Call(ScalarFunction.DATE_PLUS_INTERVAL, List.of(
                new Expr.Literal(LocalDate.of(2024, 1, 1), SqlType.DATE), new Expr.Literal(interval, SqlType.INTERVAL)),
                SqlType.DATE);
        return new Expr.Call(ScalarFunction.LT, List.of(new Expr.Column(1, SqlType.DOUBLE), end), SqlType.BOOLEAN);
    }

    private static Expr year(int year) {
        return new Expr.Call(ScalarFunction.EQ, List.of(new Expr.Column(1, SqlType.INT),
                new Expr.Literal(year, SqlType.INT)), SqlType.BOOLEAN);
    }

    private RelNode.Scan scan(String alias, int... read) {
        RelNode.Scan s = new RelNode.Scan(SALES, alias, List.of(new Field(alias, "cust", SqlType.INT),
                new Field(alias, "amount", SqlType.DOUBLE)), null);
        BitSet columns = new BitSet();
        for (int c : read) {
            columns.set(c);
        }
        usage.put(s, columns);
        return s;
    }

    private static Expr above(int column, double value) {
        return new Expr.Call(ScalarFunction.GT, List.of(new Expr.Column(column, SqlType.DOUBLE),
                new Expr.Literal(value, SqlType.DOUBLE)), SqlType.BOOLEAN);
    }
}

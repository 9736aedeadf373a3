package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
 * A semi join whose kept side is few rows has the large tables of its other side semi-joined with
 * those rows first, along the key column (TPC-DS Q95's orders IN a self-join of all web sales);
 * a kept side as large as they are, or a column the other side computes, leaves it as it is.
 */
class SemiJoinReductionTest {
    private static final TableInfo SALES = new TableInfo("default", "sales", List.of(new ResultColumn("s_order", SqlType.BIGINT),
            new ResultColumn("s_wh", SqlType.BIGINT)), List.of("s_order"), "sales", Map.of(), "");
    private static final long ROWS = 1_000_000;

    private static RelNode.Scan sales(String alias, Expr filter) {
        return new RelNode.Scan(SALES, alias, List.of(new Field(alias, "s_order", SqlType.BIGINT),
                new Field(alias, "s_wh", SqlType.BIGINT)), filter);
    }

    /** Orders shipped from two warehouses: sales joined with itself on the order, the warehouses differing. */
    private static RelNode twoWarehouses() {
        Expr differ = new Expr.Call(ScalarFunction.NE, List.of(new Expr.Column(1, SqlType.BIGINT), new Expr.Column(3, SqlType.BIGINT)),
                SqlType.BOOLEAN);
        RelNode.Join self = new RelNode.Join(sales("a", null), sales("b", null), JoinKind.INNER, new int[] {0}, new int[] {0}, differ);
        return new RelNode.Project(self, List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(new Field("w", "order", SqlType.BIGINT)));
    }

    private static Expr whIs(long wh) {
        return new Expr.Call(ScalarFunction.EQ, List.of(new Expr.Column(1, SqlType.BIGINT), new Expr.Literal(wh, SqlType.BIGINT)),
                SqlType.BOOLEAN);
    }

    private static RelNode reduced(RelNode plan, double whDistinct) {
        return SemiJoinReduction.apply(plan, CardinalityModel.of(layouts(whDistinct), plan));
    }

    @Test
    void theOtherSidesTablesAreReducedToTheKeptKeys() {
        RelNode few = sales("k", whIs(7));
        RelNode plan = new RelNode.Join(few, twoWarehouses(), JoinKind.SEMI, new int[] {0}, new int[] {0}, null);
        RelNode out = reduced(plan, 10_000);

        RelNode.Join top = assertInstanceOf(RelNode.Join.class, out);
        assertSame(few, top.left());
        RelNode.Join self = assertInstanceOf(RelNode.Join.class, ((RelNode.Project) top.right()).input());
        for (RelNode side : List.of(self.left(), self.right())) {
            RelNode.Join semi = assertInstanceOf(RelNode.Join.class, side, out.toString());
            assertEquals(JoinKind.SEMI, semi.kind());
            assertInstanceOf(RelNode.Scan.class, semi.left());
            assertSame(few, semi.right());
        }
        assertEquals(plan.fields(), out.fields());
    }

    @Test
    void theKeptSidesOwnSemiJoinsAreNotCarriedIntoTheOtherSide() {
        RelNode few = sales("k", whIs(7));
        RelNode first = new RelNode.Join(few, twoWarehouses(), JoinKind.SEMI, new int[] {0}, new int[] {0}, null);
        RelNode plan = new RelNode.Join(first, twoWarehouses(), JoinKind.SEMI, new int[] {0}, new int[] {0}, null);
        RelNode.Join top = assertInstanceOf(RelNode.Join.class, reduced(plan, 10_000));
        RelNode.Join self = (RelNode.Join) ((RelNode.Project) top.right()).input();
        assertSame(few, ((RelNode.Join) self.left()).right());
    }

    /** Undone, the reduction gives back the other side as it was: what a join run the other way round probes with. */
    @Test
    void theReductionByTheKeptSideIsUndoneForAJoinThatProbesTheKeptRows() {
        RelNode few = sales("k", whIs(7));
        RelNode first = new RelNode.Join(few, twoWarehouses(), JoinKind.SEMI, new int[] {0}, new int[] {0}, null);
        RelNode.Join plan = new RelNode.Join(first, twoWarehouses(), JoinKind.ANTI, new int[] {0}, new int[] {0}, null);
        RelNode.Join top = assertInstanceOf(RelNode.Join.class, reduced(plan, 10_000));
        assertNotEquals(plan.right(), top.right());
        assertEquals(plan.right(), SemiJoinReduction.unreduced(top));
        assertEquals(((RelNode.Join) plan.left()).right(), SemiJoinReduction.unreduced((RelNode.Join) top.left()));
    }

    @Test
    void aKeptSideAsLargeAsTheTablesOrAComputedKeyLeavesThePlan() {
        RelNode many = sales("k", whIs(7));
        RelNode plan = new RelNode.Join(many, twoWarehouses(), JoinKind.SEMI, new int[] {0}, new int[] {0}, null);
        assertEquals(plan, reduced(plan, 2)); // half the sales are kept: not worth it

        RelNode.Project computed = new RelNode.Project(sales("c", null), List.of(new Expr.Call(ScalarFunction.ADD,
                List.of(new Expr.Column(0, SqlType.BIGINT), new Expr.Literal(1L, SqlType.BIGINT)), SqlType.BIGINT)),
                List.of(new Field("c", "next", SqlType.BIGINT)));
        RelNode other = new RelNode.Join(sales("k", whIs(7)), computed, JoinKind.SEMI, new int[] {0}, new int[] {0}, null);
        assertEquals(other, reduced(other, 10_000));
    }

    private static TableLayouts layouts(double whDistinct) {
        return new TableLayouts() {
            @Override
            public OptionalLong rows(TableInfo table) {
                return OptionalLong.of(ROWS);
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
                return true;
            }

            @Override
            public long[] range(TableInfo table, int column) {
                return null;
            }

            @Override
            public double distinct(TableInfo table, int column) {
                return column == 0 ? ROWS / 10.0 : whDistinct;
            }
        };
    }
}

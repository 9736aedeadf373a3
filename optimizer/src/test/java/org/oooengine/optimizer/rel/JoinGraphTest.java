package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/** How a binary join takes its conditions: equalities across the sides become hash keys, expressions too. */
class JoinGraphTest {
    /** stock(w, i, quantity) */
    private static final TableInfo STOCK = table("stock", "w", "i", "quantity");
    /** supplier(key, nation) */
    private static final TableInfo SUPPLIER = table("supplier", "key", "nation");

    @Test
    void anEqualityOfExpressionsOverEachSideIsAHashKeyOnColumnsTheSidesCompute() {
        // stock JOIN supplier ON (w * i) % 10000 = key AND quantity > nation
        Expr product = call(ScalarFunction.MOD, call(ScalarFunction.MULTIPLY, col(0), col(1)), number(10000));
        Expr greater = new Expr.Call(ScalarFunction.GT, List.of(col(2), col(4)), SqlType.BOOLEAN);
        RelNode plan = JoinGraph.join(scan(STOCK), scan(SUPPLIER), JoinKind.INNER,
                List.of(new Expr.Call(ScalarFunction.EQ, List.of(product, col(3)), SqlType.BOOLEAN), greater));

        RelNode.Project dropped = assertInstanceOf(RelNode.Project.class, plan);
        assertEquals(List.of(col(0), col(1), col(2), col(4), col(5)), dropped.exprs(), "the key column goes after the join");
        assertEquals(5, dropped.fields().size());
        RelNode.Join join = assertInstanceOf(RelNode.Join.class, dropped.input());
        assertEquals(JoinKind.INNER, join.kind());
        assertArrayEquals(new int[] {3}, join.leftKeys());
        assertArrayEquals(new int[] {0}, join.rightKeys(), "supplier.key, a column already");
        assertEquals(new Expr.Call(ScalarFunction.GT, List.of(col(2), col(5)), SqlType.BOOLEAN), join.residual(),
                "the other condition renumbered past the left side's extra column");
        RelNode.Project stock = assertInstanceOf(RelNode.Project.class, join.left());
        assertEquals(product, stock.exprs().get(3));
        assertInstanceOf(RelNode.Scan.class, join.right(), "a side whose key is a column computes nothing");
    }

    @Test
    void aSemiJoinOnAnExpressionKeepsTheLeftColumnsOnly() {
        Expr product = call(ScalarFunction.MULTIPLY, col(0), col(1));
        RelNode plan = JoinGraph.join(scan(STOCK), scan(SUPPLIER), JoinKind.SEMI,
                List.of(new Expr.Call(ScalarFunction.EQ, List.of(col(3), product), SqlType.BOOLEAN)));

        RelNode.Project dropped = assertInstanceOf(RelNode.Project.class, plan);
        assertEquals(List.of(col(0), col(1), col(2)), dropped.exprs());
        RelNode.Join join = assertInstanceOf(RelNode.Join.class, dropped.input());
        assertEquals(JoinKind.SEMI, join.kind());
        assertArrayEquals(new int[] {3}, join.leftKeys());
        assertNull(join.residual());
    }

    @Test
    void aConditionOverBothSidesInOneExpressionStaysAResidual() {
        Expr mixed = call(ScalarFunction.ADD, col(0), col(3));
        RelNode plan = JoinGraph.join(scan(STOCK), scan(SUPPLIER), JoinKind.INNER,
                List.of(new Expr.Call(ScalarFunction.EQ, List.of(mixed, col(1)), SqlType.BOOLEAN)));

        RelNode.Join join = assertInstanceOf(RelNode.Join.class, plan);
        assertEquals(JoinKind.CROSS, join.kind());
    }

    private static TableInfo table(String name, String... columns) {
        return new TableInfo("default", name, java.util.Arrays.stream(columns).map(c -> new ResultColumn(c, SqlType.INT))
                .toList(), List.of(columns[0]), name, Map.of(), "");
    }

    private static RelNode.Scan scan(TableInfo t) {
        return new RelNode.Scan(t, t.name(), t.columns().stream().map(c -> new Field(t.name(), c.name(), c.type())).toList(),
                null);
    }

    private static Expr col(int i) {
        return new Expr.Column(i, SqlType.INT);
    }

    private static Expr number(int n) {
        return new Expr.Literal(n, SqlType.INT);
    }

    private static Expr call(ScalarFunction f, Expr a, Expr b) {
        return new Expr.Call(f, List.of(a, b), SqlType.INT);
    }
}

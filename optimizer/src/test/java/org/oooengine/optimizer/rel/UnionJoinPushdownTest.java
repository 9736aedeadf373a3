package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A UNION ALL joined with one table becomes the union of each branch joined with it (TPC-DS Q05's
 * sales and returns with the dates), where the join keeps or drops the union's rows one by one;
 * a join that needs the union whole, or another side that is more than one table, stays.
 */
class UnionJoinPushdownTest {
    private static final TableInfo SALES = table("sales");
    private static final TableInfo RETURNS = table("returns");
    private static final TableInfo DATES = table("dates");

    private static TableInfo table(String name) {
        return new TableInfo("default", name, List.of(new ResultColumn("day", SqlType.INT),
                new ResultColumn("amount", SqlType.DOUBLE)), List.of("day"), name, Map.of(), "");
    }

    private static RelNode.Scan scan(TableInfo t) {
        return new RelNode.Scan(t, t.name(), List.of(new Field(t.name(), "day", SqlType.INT),
                new Field(t.name(), "amount", SqlType.DOUBLE)), null);
    }

    /** (SELECT day, amount FROM sales UNION ALL SELECT day, -amount FROM returns) under a projection. */
    private static RelNode salesAndReturns() {
        RelNode.Scan r = scan(RETURNS);
        RelNode negated = new RelNode.Project(r, List.of(new Expr.Column(0, SqlType.INT), new Expr.Column(1, SqlType.DOUBLE)),
                r.fields());
        RelNode.Union union = new RelNode.Union(List.of(scan(SALES), negated), scan(SALES).fields());
        return new RelNode.Project(union, List.of(new Expr.Column(0, SqlType.INT), new Expr.Column(1, SqlType.DOUBLE)),
                union.fields());
    }

    private static RelNode.Join join(RelNode left, RelNode right, JoinKind kind) {
        return new RelNode.Join(left, right, kind, new int[] {0}, new int[] {0}, null);
    }

    @Test
    void eachBranchJoinsTheTable() {
        RelNode.Scan dates = scan(DATES).withFilter(new Expr.Literal(true, SqlType.BOOLEAN));
        RelNode.Join joined = join(salesAndReturns(), dates, JoinKind.INNER);
        RelNode plan = UnionJoinPushdown.apply(joined);

        RelNode.Union union = assertInstanceOf(RelNode.Union.class, plan);
        assertEquals(joined.fields(), union.fields());
        assertEquals(2, union.inputs().size());
        for (RelNode branch : union.inputs()) {
            RelNode.Join j = assertInstanceOf(RelNode.Join.class, branch);
            assertSame(dates, j.right());
            assertInstanceOf(RelNode.Project.class, j.left(), "the projection over the union goes over each branch");
        }
        RelNode.Project second = (RelNode.Project) ((RelNode.Join) union.inputs().get(1)).left();
        assertInstanceOf(RelNode.Project.class, second.input());
        assertSame(RETURNS, ((RelNode.Scan) ((RelNode.Project) second.input()).input()).table());
    }

    @Test
    void theUnionMayBeOnTheRightOfAnInnerJoinAndJoinsNestOnePerTable() {
        RelNode twice = join(scan(DATES), join(salesAndReturns(), scan(DATES), JoinKind.INNER), JoinKind.INNER);
        RelNode.Union union = assertInstanceOf(RelNode.Union.class, UnionJoinPushdown.apply(twice));
        assertEquals(twice.fields(), union.fields());
        for (RelNode branch : union.inputs()) {
            RelNode.Join outer = assertInstanceOf(RelNode.Join.class, branch);
            assertInstanceOf(RelNode.Scan.class, outer.left());
            assertInstanceOf(RelNode.Join.class, outer.right());
        }
    }

    @Test
    void leftSemiAndAntiJoinsOfTheUnionDistribute() {
        for (JoinKind kind : List.of(JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI)) {
            RelNode.Join joined = join(salesAndReturns(), scan(DATES), kind);
            RelNode.Union union = assertInstanceOf(RelNode.Union.class, UnionJoinPushdown.apply(joined), kind.toString());
            assertEquals(joined.fields(), union.fields());
        }
    }

    @Test
    void joinsThatNeedTheUnionWholeStay() {
        // a right join null-extends a date once for the whole union, not once per branch
        RelNode right = join(salesAndReturns(), scan(DATES), JoinKind.RIGHT);
        assertInstanceOf(RelNode.Join.class, UnionJoinPushdown.apply(right));
        RelNode semiOfUnion = join(scan(DATES), salesAndReturns(), JoinKind.SEMI);
        assertInstanceOf(RelNode.Join.class, UnionJoinPushdown.apply(semiOfUnion));
        RelNode full = join(salesAndReturns(), scan(DATES), JoinKind.FULL);
        assertInstanceOf(RelNode.Join.class, UnionJoinPushdown.apply(full));
    }

    @Test
    void aJoinOnTheOtherSideIsNotComputedOncePerBranch() {
        RelNode twoTables = join(scan(DATES), scan(SALES), JoinKind.INNER);
        RelNode joined = new RelNode.Join(salesAndReturns(), twoTables, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        assertInstanceOf(RelNode.Join.class, UnionJoinPushdown.apply(joined));
    }
}

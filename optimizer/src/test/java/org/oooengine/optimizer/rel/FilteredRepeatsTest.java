package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A grouping computed twice alike, once under a filter (TPC-DS Q47's ranked monthly sums read
 * filtered and as the month before), is placed whole both times; one computed once, or alike to
 * none, is not.
 */
class FilteredRepeatsTest {
    private static final TableInfo SALES = new TableInfo("default", "sales", List.of(new ResultColumn("shop", SqlType.BIGINT),
            new ResultColumn("amount", SqlType.BIGINT)), List.of("shop"), "sales", Map.of(), "");

    /** SELECT shop, count(*) FROM sales [WHERE amount = {@code amount}] GROUP BY shop, written anew each time. */
    private static RelNode.Aggregate perShop(Long amount) {
        Expr filter = amount == null ? null : new Expr.Call(ScalarFunction.EQ, List.of(new Expr.Column(1, SqlType.BIGINT),
                new Expr.Literal(amount, SqlType.BIGINT)), SqlType.BOOLEAN);
        RelNode.Scan scan = new RelNode.Scan(SALES, "s", List.of(new Field("s", "shop", SqlType.BIGINT),
                new Field("s", "amount", SqlType.BIGINT)), filter);
        return new RelNode.Aggregate(scan, List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(),
                List.of(new Field("g", "shop", SqlType.BIGINT)));
    }

    private static RelNode join(RelNode left, RelNode right) {
        return new RelNode.Join(left, right, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
    }

    private static RelNode.Filter shopAbove(RelNode input, long shop) {
        return new RelNode.Filter(input, new Expr.Call(ScalarFunction.GT, List.of(new Expr.Column(0, SqlType.BIGINT),
                new Expr.Literal(shop, SqlType.BIGINT)), SqlType.BOOLEAN));
    }

    private static RelNode.Project all(RelNode input) {
        return new RelNode.Project(input, List.of(new Expr.Column(0, SqlType.BIGINT)), input.fields());
    }

    @Test
    void aFilteredOccurrenceAndItsAlikeArePlacedWhole() {
        RelNode.Aggregate filtered = perShop(null);
        RelNode.Aggregate plain = perShop(null);
        Set<RelNode> whole = FilteredRepeats.of(join(shopAbove(filtered, 3), all(plain)));
        assertEquals(2, whole.size());
        assertTrue(whole.contains(filtered));
        assertTrue(whole.contains(plain));
    }

    @Test
    void occurrencesAlikeShareTheColumnsReadOfThem() {
        RelNode.Aggregate filtered = perShop(null);
        RelNode.Aggregate plain = perShop(null);
        RelNode.Aggregate other = perShop(5L);
        Map<RelNode, java.util.BitSet> reads = FilteredRepeats.reads(join(join(shopAbove(filtered, 3), all(plain)),
                join(shopAbove(other, 1), all(perShop(5L)))));
        assertEquals(4, reads.size());
        assertTrue(reads.get(filtered) == reads.get(plain), "one set for the occurrences alike");
        assertFalse(reads.get(filtered) == reads.get(other));
        assertTrue(reads.get(filtered).isEmpty());
    }

    @Test
    void groupingsAlikeToNoneOrNeverFilteredStayAsTheyAre() {
        assertTrue(FilteredRepeats.of(join(shopAbove(perShop(null), 3), all(perShop(7L)))).isEmpty());
        assertTrue(FilteredRepeats.of(join(all(perShop(null)), all(perShop(null)))).isEmpty());
    }

    @Test
    void alikeComparesKeysOfJoinsByValue() {
        assertTrue(FilteredRepeats.alike(join(perShop(1L), perShop(2L)), join(perShop(1L), perShop(2L))));
        assertFalse(FilteredRepeats.alike(join(perShop(1L), perShop(2L)), join(perShop(1L), perShop(3L))));
    }
}

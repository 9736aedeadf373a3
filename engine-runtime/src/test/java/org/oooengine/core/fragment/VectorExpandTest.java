package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * GROUPING SETS' copies of a batch: the input's vectors passed as they are, the nulls of the keys
 * a set leaves out and its grouping id as constant vectors made once, computed columns evaluated
 * a batch at a time; the rows are the batch's positions.
 */
class VectorExpandTest {
    private static final Expr QTY = new Expr.Column(0, SqlType.BIGINT);
    private static final Expr FLAG = new Expr.Column(1, SqlType.STRING);
    private static final SqlType[] OUT = {SqlType.BIGINT, SqlType.STRING, SqlType.BIGINT, SqlType.BIGINT, SqlType.INTERVAL};
    private static final PipelineStep.Expand ROLLUP = new PipelineStep.Expand(List.of(
            copy(FLAG, 0L), copy(new Expr.Literal(null, SqlType.STRING), 1L)));

    /** (qty, flag or null, grouping id, qty + 1, an interval no one reads). */
    private static List<Expr> copy(Expr flag, long id) {
        return List.of(QTY, flag, new Expr.Literal(id, SqlType.BIGINT),
                new Expr.Call(ScalarFunction.ADD, List.of(QTY, new Expr.Literal(1L, SqlType.BIGINT)), SqlType.BIGINT),
                new Expr.Literal(null, SqlType.INTERVAL));
    }

    @Test
    void eachCopySharesTheInputsVectorsBesideConstants() {
        VectorExpand expand = VectorExpand.of(ROLLUP);
        LongVector qty = new LongVector(new long[] {3, 5, 7, 9}, null);
        qty.setNull(2);
        Vector flag = new ObjectVector(new Object[] {"A", "N", null, "R"});
        Batch in = new Batch(new Vector[] {qty, flag}, new int[] {0, 2, 3}, 3); // position 1 filtered out
        List<Batch> copies = new ArrayList<>();
        expand.expand(in, copies::add);
        assertEquals(2, copies.size());
        Batch first = copies.get(0);
        Batch second = copies.get(1);
        assertEquals(List.of("[3, A, 0, 4, null]", "[null, null, 0, null, null]", "[9, R, 0, 10, null]"), rows(first));
        assertEquals(List.of("[3, null, 1, 4, null]", "[null, null, 1, null, null]", "[9, null, 1, 10, null]"), rows(second),
                "the flag left out is null, also where it was null already; the grouping id beside it tells them apart");
        assertSame(qty, first.column(0), "a passed column is the input's vector");
        assertSame(qty, second.column(0));
        assertSame(flag, first.column(1));
        assertSame(in.positions(), second.positions(), "the same rows");
        assertNull(first.column(4), "a null in every copy of a type no vector holds has no vector");

        // a later batch gets the same constant vectors; a larger one larger ones
        List<Batch> again = new ArrayList<>();
        expand.expand(Batch.of(new Vector[] {qty, flag}, 4), again::add);
        assertSame(second.column(1), again.get(1).column(1));
        assertSame(second.column(2), again.get(1).column(2));
        assertEquals(List.of("[3, null, 1, 4, null]", "[5, null, 1, 6, null]", "[null, null, 1, null, null]",
                "[9, null, 1, 10, null]"), rows(again.get(1)));
        int wide = 3000;
        Batch large = Batch.of(new Vector[] {new LongVector(new long[wide], null), new ObjectVector(new Object[wide])}, wide);
        Batch copied = expand.copy(large, 1);
        assertNotSame(second.column(2), copied.column(2));
        assertEquals(1L, copied.column(2).box(wide - 1, SqlType.BIGINT));
    }

    @Test
    void aComputedColumnOfATypeNoVectorHoldsIsNotExpandedOnVectors() {
        Expr days = new Expr.Column(0, SqlType.INTERVAL);
        assertNull(VectorExpand.of(new PipelineStep.Expand(List.of(List.of(days), List.of(new Expr.Literal(null,
                SqlType.INTERVAL))))));
    }

    private static List<String> rows(Batch b) {
        return b.toRows(OUT).stream().map(Arrays::toString).toList();
    }
}

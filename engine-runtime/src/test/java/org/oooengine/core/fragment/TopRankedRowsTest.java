package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * A window read by a filter on its rank drops the rows that cannot rank well enough before it
 * sorts, and the filter keeps the very rows it keeps without that: ties at the limit, NULLs in the
 * order, partitions that never fill, a limit of none, in memory and spilled.
 */
class TopRankedRowsTest {
    @TempDir
    Path dir;

    private static final Expr K = new Expr.Column(0, SqlType.BIGINT);
    private static final Expr V = new Expr.Column(1, SqlType.BIGINT);
    private static final Expr ID = new Expr.Column(2, SqlType.BIGINT);

    /** Rows of (partition key with NULLs, order key with many ties and NULLs, unique id, a text). */
    private static List<Object[]> rows(int count, int partitions, long seed) {
        Random random = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Long k = random.nextInt(50) == 0 ? null : (long) random.nextInt(partitions);
            Long v = random.nextInt(30) == 0 ? null : (long) random.nextInt(40);
            rows.add(new Object[] {k, v, (long) i, "row " + i + " ".repeat(40)});
        }
        return rows;
    }

    private static Expr limit(ScalarFunction op, Expr left, Expr right) {
        return new Expr.Call(op, List.of(left, right), SqlType.BOOLEAN);
    }

    private static Expr literal(long n) {
        return new Expr.Literal((int) n, SqlType.INT);
    }

    /** The ids of the rows {@code filter} keeps of the window's, the window told of it or not. */
    private static List<Long> kept(List<Object[]> rows, List<WindowCall.OrderKey> order, WindowCall call, Expr filter,
                                   boolean told, QueryMemory memory) {
        RankLimit limit = told ? RankLimit.of(4, List.of(call), filter) : null;
        if (told) {
            assertTrue(limit != null, "a limit in " + filter);
        }
        WindowOperator w = new WindowOperator(4, List.of(K), order, List.of(call), limit, memory, "window functions (OVER)");
        memory.revocable(w::revoke);
        for (int from = 0; from < rows.size(); from += 100) {
            w.add(new ArrayList<>(rows.subList(from, Math.min(rows.size(), from + 100))));
        }
        List<Long> ids = new ArrayList<>();
        w.finish(batch -> batch.stream().filter(r -> Boolean.TRUE.equals(filter.eval(r))).forEach(r -> ids.add((Long) r[2])));
        assertEquals(0, memory.used(), "the window gave its memory back");
        memory.close();
        ids.sort(null);
        return ids;
    }

    @Test
    void theFilterKeepsTheSameRowsWhetherTheWindowDropsFirstOrNot() {
        List<Object[]> rows = rows(6_000, 9, 7);
        Expr rank = new Expr.Column(4, SqlType.INT);
        // row_number over ties is any order of them: ordered by id after v, it is one
        List<WindowCall.OrderKey> byValue = List.of(new WindowCall.OrderKey(V, false, true));
        List<WindowCall.OrderKey> byValueThenId = List.of(new WindowCall.OrderKey(V, true, false),
                new WindowCall.OrderKey(ID, true, true));
        for (WindowCall.Kind kind : List.of(WindowCall.Kind.RANK, WindowCall.Kind.DENSE_RANK, WindowCall.Kind.ROW_NUMBER)) {
            List<WindowCall.OrderKey> order = kind == WindowCall.Kind.ROW_NUMBER ? byValueThenId : byValue;
            for (long n : new long[] {0, 1, 3, 17, 5_000}) {
                for (Expr filter : List.of(limit(ScalarFunction.LE, rank, literal(n)),
                        limit(ScalarFunction.GT, literal(n + 1), rank),
                        new Expr.And(List.of(limit(ScalarFunction.LT, rank, literal(n + 1)),
                                limit(ScalarFunction.NE, ID, literal(5)))))) {
                    WindowCall call = WindowCall.ranking(kind);
                    List<Long> all = kept(rows, order, call, filter, false, QueryMemory.unbounded());
                    assertEquals(all, kept(rows, order, call, filter, true, QueryMemory.unbounded()), kind + " " + filter);
                }
            }
        }
    }

    @Test
    void rowsBehindTheBestAreDroppedAndTiesKept() {
        java.util.Comparator<Object[]> byFirst = java.util.Comparator.comparing(r -> (Long) r[0]);
        List<Object[]> in = List.of(new Object[] {1L}, new Object[] {2L}, new Object[] {2L}, new Object[] {3L},
                new Object[] {0L}, new Object[] {2L});
        TopRankedRows rank = new TopRankedRows(new RankLimit(WindowCall.Kind.RANK, 2), (a, b) -> 0, byFirst);
        assertEquals(List.of(1L, 2L, 2L, 0L), rank.kept(in).stream().map(r -> r[0]).toList()); // 2 is third after 0
        assertEquals(2, rank.dropped());
        TopRankedRows dense = new TopRankedRows(new RankLimit(WindowCall.Kind.DENSE_RANK, 2), (a, b) -> 0, byFirst);
        assertEquals(List.of(1L, 2L, 2L, 0L), dense.kept(in).stream().map(r -> r[0]).toList());
    }

    @Test
    void spilledTheSameRowsAreKept() {
        List<Object[]> rows = rows(20_000, 3, 11);
        Expr filter = limit(ScalarFunction.LE, new Expr.Column(4, SqlType.INT), literal(2_000));
        List<WindowCall.OrderKey> order = List.of(new WindowCall.OrderKey(V, true, true));
        WindowCall rank = WindowCall.ranking(WindowCall.Kind.RANK);
        List<Long> all = kept(rows, order, rank, filter, false, QueryMemory.unbounded());
        List<Long> spilled = kept(rows, order, rank, filter, true,
                new QueryMemory("the coordinator", 100_000, "ooo.query.max-memory", dir.resolve("spill")));
        assertEquals(all, spilled);
    }

    @Test
    void onlyRankingsUnderABoundAreLimits() {
        Expr second = new Expr.Column(5, SqlType.INT);
        WindowCall rank = WindowCall.ranking(WindowCall.Kind.RANK);
        WindowCall count = WindowCall.aggregate(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false,
                SqlType.BIGINT), WindowCall.Frame.WHOLE_PARTITION);
        // the tightest of two: row_number() < 10
        assertEquals(new RankLimit(WindowCall.Kind.ROW_NUMBER, 9),
                RankLimit.of(4, List.of(rank, WindowCall.ranking(WindowCall.Kind.ROW_NUMBER)),
                        new Expr.And(List.of(limit(ScalarFunction.LE, new Expr.Column(4, SqlType.INT), literal(20)),
                                limit(ScalarFunction.LT, second, literal(10))))));
        // a count over the partition reads the rows a limit would drop
        assertNull(RankLimit.of(4, List.of(rank, count), limit(ScalarFunction.LE, new Expr.Column(4, SqlType.INT), literal(3))));
        // a lower bound, a bound on a column of the input, a bound too large: none
        assertNull(RankLimit.of(4, List.of(rank), limit(ScalarFunction.GE, new Expr.Column(4, SqlType.INT), literal(3))));
        assertNull(RankLimit.of(4, List.of(rank), limit(ScalarFunction.LE, V, literal(3))));
        assertNull(RankLimit.of(4, List.of(rank), limit(ScalarFunction.LE, new Expr.Column(4, SqlType.INT),
                literal(RankLimit.MAX_RANKS + 1))));
        assertNull(RankLimit.of(4, List.of(rank), null));
    }
}

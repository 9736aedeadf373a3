package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.WindowCall;
import org.oooengine.core.sql.expr.WindowCall.Bound;
import org.oooengine.core.sql.expr.WindowCall.Frame;

/**
 * A window gives the same values whether its rows fit in memory or its sort and its partitions
 * spill (a partition read back by position from disk), and gives its memory and files back.
 */
class WindowOperatorTest {
    @TempDir
    Path dir;

    /** Rows of (partition key with NULLs, order key with ties and NULLs, unique id, a long text). */
    private static List<Object[]> rows(int count, int partitions, long seed) {
        Random random = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Long k = random.nextInt(50) == 0 ? null : (long) random.nextInt(partitions);
            Long v = random.nextInt(30) == 0 ? null : (long) random.nextInt(100);
            rows.add(new Object[] {k, v, (long) i, "row " + i + " ".repeat(40)});
        }
        return rows;
    }

    private static final Expr K = new Expr.Column(0, SqlType.BIGINT);
    private static final Expr V = new Expr.Column(1, SqlType.BIGINT);
    private static final Expr ID = new Expr.Column(2, SqlType.BIGINT);

    private static List<WindowCall> calls() {
        return List.of(WindowCall.ranking(WindowCall.Kind.ROW_NUMBER), WindowCall.ranking(WindowCall.Kind.RANK),
                WindowCall.ranking(WindowCall.Kind.CUME_DIST), WindowCall.ntile(4),
                WindowCall.shift(WindowCall.Kind.LAG, ID, 700, null),
                WindowCall.aggregate(new AggregateCall(AggregateCall.Kind.SUM, ID, false, SqlType.BIGINT),
                        new Frame(true, Bound.preceding(3), Bound.following(2))),
                WindowCall.aggregate(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                        Frame.TO_CURRENT_PEERS),
                WindowCall.aggregate(new AggregateCall(AggregateCall.Kind.MAX, ID, false, SqlType.BIGINT),
                        new Frame(false, Bound.preceding(5), Bound.following(5))),
                WindowCall.value(WindowCall.Kind.LAST_VALUE, ID, false, Frame.WHOLE_PARTITION));
    }

    /** The window's rows, by id; {@code memory} is closed after. */
    private List<Object[]> window(List<Object[]> rows, QueryMemory memory) {
        // the order by v, then id: every call but those over peers gives one answer
        WindowOperator w = new WindowOperator(4, List.of(K), List.of(new WindowCall.OrderKey(V, true, false),
                new WindowCall.OrderKey(ID, false, true)), calls(), memory, "window functions (OVER)");
        memory.revocable(w::revoke);
        for (int from = 0; from < rows.size(); from += 100) {
            w.add(new ArrayList<>(rows.subList(from, Math.min(rows.size(), from + 100))));
        }
        List<Object[]> out = new ArrayList<>();
        w.finish(out::addAll);
        if (memory.limit() < Long.MAX_VALUE) {
            assertTrue(w.spilledBytes() > 0, "it spilled");
        }
        assertEquals(0, memory.used(), "the window gave its memory back");
        memory.close();
        out.sort(Comparator.comparing(r -> (Long) r[2]));
        return out;
    }

    @Test
    void spilledSortsAndPartitionsGiveTheValuesOfMemory() throws Exception {
        for (int partitions : new int[] {1, 40}) { // one partition far larger than the memory, and many
            List<Object[]> rows = rows(20_000, partitions, partitions);
            List<Object[]> inMemory = window(rows, QueryMemory.unbounded());
            List<Object[]> spilled = window(rows, new QueryMemory("the coordinator", 100_000, "ooo.query.max-memory",
                    dir.resolve("spill")));
            assertEquals(rows.size(), spilled.size());
            for (int i = 0; i < rows.size(); i++) {
                assertArrayEquals(inMemory.get(i), spilled.get(i), "row " + i);
            }
            try (Stream<Path> files = Files.exists(dir.resolve("spill")) ? Files.list(dir.resolve("spill")) : Stream.empty()) {
                assertEquals(0, files.count(), "no spill file is left");
            }
        }
    }

    @Test
    void peersShareTheirRankAndTheirRunningCount() {
        List<Object[]> rows = rows(3_000, 7, 3);
        WindowOperator w = new WindowOperator(4, List.of(K), List.of(new WindowCall.OrderKey(V, true, false)),
                List.of(WindowCall.ranking(WindowCall.Kind.RANK), WindowCall.ranking(WindowCall.Kind.DENSE_RANK),
                        WindowCall.aggregate(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                                Frame.TO_CURRENT_PEERS)), QueryMemory.unbounded(), "window functions (OVER)");
        w.add(rows);
        List<Object[]> out = new ArrayList<>();
        w.finish(out::addAll);
        assertEquals(rows.size(), out.size());
        for (Object[] r : out) { // NULL v last
            List<Object[]> partition = rows.stream().filter(o -> java.util.Objects.equals(o[0], r[0])).toList();
            long before = partition.stream().filter(o -> sortsBefore(o[1], r[1])).count();
            long peers = partition.stream().filter(o -> java.util.Objects.equals(o[1], r[1])).count();
            long distinctBefore = partition.stream().filter(o -> sortsBefore(o[1], r[1])).map(o -> o[1]).distinct().count();
            assertEquals((int) (before + 1), r[4], "rank of " + r[2]);
            assertEquals((int) (distinctBefore + 1), r[5], "dense_rank of " + r[2]);
            assertEquals(before + peers, r[6], "count(*) up to the last peer of " + r[2]);
        }
    }

    private static boolean sortsBefore(Object a, Object b) {
        if (a == null) {
            return false;
        }
        return b == null || (Long) a < (Long) b;
    }
}

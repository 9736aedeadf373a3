package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/**
 * What operators grow is bounded: a probe hands its rows on in bounded batches and stops once a
 * limit has its rows; a partial aggregate sends its groups on when they fill their share; every
 * statement of a node and the rows sent ahead for them draw from one node-wide memory, which they
 * give back when they end.
 */
@Timeout(60)
class OperatorMemoryTest {
    private static final Expr ID = new Expr.Column(0, SqlType.BIGINT);

    private static List<Object[]> rows(int n, int keys) {
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {(long) (i % keys), "row " + i});
        }
        return rows;
    }

    private static PipelineStep.HashJoin join(JoinKind kind, List<Object[]> build) {
        boolean keyed = kind != JoinKind.CROSS;
        return new PipelineStep.HashJoin(new JoinBuild.Rows(build), kind, keyed ? List.of(0) : List.of(),
                keyed ? List.of(0) : List.of(), null, 2);
    }

    @Test
    void aProbeRowThatMeetsAWholeTableHandsItsRowsOnInBoundedBatches() {
        List<Object[]> build = rows(50_000, 1); // every build row has key 0: a probe row with key 0 meets them all
        for (JoinKind kind : List.of(JoinKind.CROSS, JoinKind.INNER, JoinKind.LEFT)) {
            HashJoinTable table = new HashJoinTable(kind, build, new int[] {0}, new int[] {0}, null, 2, 2);
            long[] rows = {0};
            int[] largest = {0};
            table.probe(rows(20, 1), batch -> {
                rows[0] += batch.size();
                largest[0] = Math.max(largest[0], batch.size());
            });
            assertEquals(20L * 50_000, rows[0], kind + ": every pair came out");
            assertTrue(largest[0] <= HashJoinTable.OUT_ROWS, kind + ": a batch of " + largest[0]);
        }
    }

    @Test
    void aCrossJoinUnderALimitStopsOnceTheLimitHasItsRows() {
        List<Object[]> build = rows(200_000, 1000);
        long[] made = {0};
        List<Object[]> out = new ArrayList<>();
        // the join, then the limit: 1024 probe rows would make 200 million rows
        Pipeline pipeline = new Pipeline(List.of(join(JoinKind.CROSS, build), new PipelineStep.Limit(10)), 2,
                Pipeline.BuildSource.ROWS_ONLY, batch -> {
                    made[0] += batch.size();
                    out.addAll(batch);
                }, QueryMemory.unbounded());
        long t0 = System.nanoTime();
        pipeline.accept(rows(1024, 1024));
        pipeline.accept(rows(1024, 1024));
        pipeline.finish();
        assertEquals(10, out.size());
        assertEquals(4, out.get(0).length);
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "stopped at once, not after 400 million rows");
    }

    @Test
    void aCancelledPipelineStopsWithinABatchOfAJoinThatMultipliesItsRows() {
        List<Object[]> build = rows(100_000, 1);
        AtomicLong made = new AtomicLong();
        Pipeline pipeline = new Pipeline(List.of(join(JoinKind.CROSS, build)), 2, Pipeline.BuildSource.ROWS_ONLY,
                batch -> made.addAndGet(batch.size()), QueryMemory.unbounded());
        pipeline.stopWhen(() -> {
            if (made.get() > 10_000) {
                throw new java.util.concurrent.CancellationException("cancelled");
            }
            return false;
        });
        assertThrows(java.util.concurrent.CancellationException.class, () -> pipeline.accept(rows(1024, 1024)));
        assertTrue(made.get() < 20_000, made.get() + " rows made after the cancellation");
    }

    @Test
    void aPartialAggregateSendsItsGroupsOnWhenTheyFillItsShareAndTheMergeIsExact() {
        List<AggregateCall> calls = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                new AggregateCall(AggregateCall.Kind.SUM, ID, false, SqlType.BIGINT));
        // 200,000 groups of two rows each in 4 MiB: far more than fit, which used to fail the statement
        QueryMemory memory = new QueryMemory("node n1", 4 << 20, "ooo.query.max-memory-per-node");
        FinalAggregation merged = new FinalAggregation(1, calls);
        long[] partials = {0};
        Pipeline pipeline = new Pipeline(List.of(new PipelineStep.PartialAggregate(List.of(ID), calls)), 2,
                Pipeline.BuildSource.ROWS_ONLY, batch -> {
                    partials[0] += batch.size();
                    batch.forEach(merged::accept);
                }, memory);
        List<Object[]> input = rows(400_000, 200_000);
        for (int from = 0; from < input.size(); from += Pipeline.BATCH_ROWS) {
            pipeline.accept(input.subList(from, Math.min(input.size(), from + Pipeline.BATCH_ROWS)));
            assertTrue(memory.used() <= memory.limit() / Pipeline.PARTIAL_SHARE + (1 << 20), memory.used() + " held");
        }
        pipeline.finish();
        assertTrue(partials[0] > 200_000, "groups went on early: " + partials[0] + " partial rows");
        List<Object[]> results = merged.results();
        assertEquals(200_000, results.size());
        for (Object[] r : results) {
            assertEquals(2L, r[1]);
            assertEquals(2 * (Long) r[0], r[2]);
        }
    }

    @Test
    void theStatementsOfANodeShareItsMemoryAndGiveItBackWhenTheyEnd() {
        NodeMemory node = new NodeMemory("node n1", 10 << 20, "ooo node --statements-memory");
        QueryMemory first = new QueryMemory("node n1", 8 << 20, QueryMemory.raiseWith("ooo.query.max-memory-per-node"), null, Long.MAX_VALUE,
                SpillSpace.unbounded(), node);
        QueryMemory second = new QueryMemory("node n1", 8 << 20, QueryMemory.raiseWith("ooo.query.max-memory-per-node"), null, Long.MAX_VALUE,
                SpillSpace.unbounded(), node);
        first.reserve("hash join build from orders", 6 << 20);
        // within its own limit, but not within what the node has left
        MemoryLimitExceededException e = assertThrows(MemoryLimitExceededException.class,
                () -> second.reserve("partial aggregation", 6 << 20));
        assertTrue(e.getMessage().startsWith("partial aggregation on node n1 needs more than the memory node n1 gives"),
                e.getMessage());
        assertTrue(e.getMessage().contains("ooo node --statements-memory"), e.getMessage());
        assertEquals(6 << 20, node.used());
        // a statement that failed without giving back what its operators held: closing gives it back
        first.close();
        assertEquals(0, node.used());
        second.reserve("partial aggregation", 6 << 20);
        second.release(1 << 20);
        assertEquals(5 << 20, node.used());
        second.close();
        second.release(1 << 20); // after the close: not counted again
        assertEquals(0, node.used());
    }

    @Test
    void rowsSentAheadAreHeldOfTheNodesMemoryUntilAPipelineTakesThem() {
        NodeMemory node = new NodeMemory("node n1", 4 << 20, "ooo node --statements-memory");
        StagedRows staged = new StagedRows("n1", 1L << 40, node);
        Exchanges exchanges = new Exchanges("n1", 1L << 40, node);
        staged.add("b1", org.oooengine.core.wire.ColumnarRows.Chunk.ofRows(rows(10_000, 10)), 100_000);
        long held = node.used();
        assertTrue(held > 500_000, held + " bytes held");
        // more than the node has room for: refused by name, and nothing more held
        MemoryLimitExceededException e = assertThrows(MemoryLimitExceededException.class,
                () -> exchanges.add("x1", "n2", rows(100_000, 10), 1_000_000, false));
        assertTrue(e.getMessage().startsWith("shuffled rows held for a pipeline to come on node n1"), e.getMessage());
        assertEquals(held, node.used());
        exchanges.add("x1", "n2", rows(1000, 10), 10_000, true);
        List<Object[]> drained = new ArrayList<>();
        exchanges.drain("x1", 1, () -> false, drained::addAll);
        assertEquals(1000, drained.size());
        assertEquals(held, node.used(), "taken: the pipeline counts them now");
        List<org.oooengine.core.wire.ColumnarRows.Chunk> read = new ArrayList<>();
        staged.read("b1", read::add);
        assertEquals(10_000, read.get(0).size());
        assertEquals(0, node.used(), "read: the pipeline counts them now");
        staged.remove("b1");
        assertEquals(0, node.used());
    }

    @Test
    void aWholeAggregateOnANodeSpillsInsteadOfFailing(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        List<AggregateCall> calls = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT));
        QueryMemory memory = new QueryMemory("node n1", 2 << 20, "ooo.query.max-memory-per-node", dir.resolve("spill"));
        Map<Long, Long> counts = new HashMap<>();
        Pipeline pipeline = new Pipeline(List.of(new PipelineStep.Aggregate(List.of(ID), calls)), 2,
                Pipeline.BuildSource.ROWS_ONLY, batch -> batch.forEach(r -> counts.merge((Long) r[0], (Long) r[1], Long::sum)),
                memory);
        List<Object[]> input = rows(300_000, 100_000);
        for (int from = 0; from < input.size(); from += Pipeline.BATCH_ROWS) {
            pipeline.accept(input.subList(from, Math.min(input.size(), from + Pipeline.BATCH_ROWS)));
        }
        pipeline.finish();
        memory.close();
        assertTrue(memory.spilledBytes() > 0, "its groups went to disk");
        assertEquals(100_000, counts.size());
        counts.values().forEach(n -> assertEquals(3L, n));
    }

    @Test
    void aPipelineBehindItsProducersHoldsThemBackInsteadOfItsInboxGrowing() throws Exception {
        NodeMemory node = new NodeMemory("node n1", 64 << 20, "ooo node --statements-memory");
        Exchanges exchanges = new Exchanges("n1", 1L << 40, node);
        var timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            List<String> acked = java.util.Collections.synchronizedList(new ArrayList<>());
            // within its share: acknowledged at once
            exchanges.add("x", "n2", rows(1000, 10), 10_000, false);
            exchanges.acknowledge("x", () -> acked.add("first"), 60_000, timer);
            assertEquals(List.of("first"), acked);
            // past its share (4 MiB): held back until the pipeline takes rows
            exchanges.add("x", "n2", rows(60_000, 10), 600_000, false);
            exchanges.acknowledge("x", () -> acked.add("second"), 60_000, timer);
            assertEquals(List.of("first"), acked);
            // a producer on this node waits as long, or at most its delay
            long t0 = System.nanoTime();
            exchanges.awaitRoom("x", 300, () -> false);
            assertTrue(System.nanoTime() - t0 >= 250_000_000L, "waited for room");
            exchanges.add("x", "n2", List.of(), 0, true);
            List<Object[]> drained = new ArrayList<>();
            exchanges.drain("x", 1, () -> false, drained::addAll);
            assertEquals(61_000, drained.size());
            assertEquals(List.of("first", "second"), acked);
            // one that nothing drains is acknowledged after its delay: its producer never times out
            exchanges.add("y", "n2", rows(60_000, 10), 600_000, false);
            exchanges.acknowledge("y", () -> acked.add("late"), 200, timer);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (acked.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(List.of("first", "second", "late"), acked);
            exchanges.remove("y");
            assertEquals(0, node.used());
        } finally {
            timer.shutdownNow();
        }
    }
}

package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.oooengine.core.fragment.PartitionPipeline.Summary;
import org.oooengine.hive.sql.exec.OperatorFigures;
import org.oooengine.hive.sql.exec.TableReader;

/** EXPLAIN ANALYZE's figures in words: sizes in readable units, and a line per node only where the nodes differ. */
class MeasuredTextTest {
    private static TableReader.NodeFigures nodes(Summary n1, Summary n2) {
        TreeMap<String, Summary> byNode = new TreeMap<>();
        byNode.put("n1", n1);
        byNode.put("n2", n2);
        return new TableReader.NodeFigures(byNode);
    }

    @Test
    void nodesAlikeGetOneLineOfTotalsAndTheMostOneNodeHeld() {
        OperatorFigures f = OperatorFigures.of(49_939, 476_000_000L).withNodes(nodes(
                new Summary(143_000, 25_000, 300_000_000L, 12_897_485, 0, 0, 600_000),
                new Summary(144_514, 24_939, 332_000_000L, 12_000_000, 0, 0, 620_000)));
        assertEquals("  [actual rows 49,939, 0.476 s; nodes read 287,514 rows, slowest n2 0.332 s, peak memory 12.3 MiB, "
                + "spilled 0 B, sent 1.2 MiB]", MeasuredText.of(f));
    }

    @Test
    void rowsAPartialAggregateSentOnUngroupedAreSaid() {
        OperatorFigures f = OperatorFigures.of(1_491_144, 6_585_000_000L).withNodes(nodes(
                new Summary(1_440_000, 700_000, 6_000_000_000L, 150L << 20, 0, 0, 33L << 20, 460_000),
                new Summary(1_440_404, 791_144, 6_527_000_000L, 156L << 20, 0, 0, 34L << 20, 470_000)));
        assertEquals("  [actual rows 1,491,144, 6.585 s; nodes read 2,880,404 rows, slowest n2 6.527 s, peak memory 156.0 MiB, "
                + "spilled 0 B, sent 67.0 MiB, partial aggregation skipped for 930,000 rows]", MeasuredText.of(f));
    }

    @Test
    void bytesOfFilesReadAndReadFromTheNodesCacheOfThemAreSaid() {
        OperatorFigures f = OperatorFigures.of(100, 50_000_000L).withNodes(nodes(
                new Summary(6_000, 50, 40_000_000L, 1L << 20, 0, 0, 1_000, 0, 3L << 20, 0),
                new Summary(6_000, 50, 45_000_000L, 1L << 20, 0, 0, 1_000, 0, 0, 5L << 20)));
        assertEquals("  [actual rows 100, 0.050 s; nodes read 12,000 rows (3.0 MiB of files; 5.0 MiB from the nodes' "
                + "cache of files), slowest n2 0.045 s, peak memory 1.0 MiB, spilled 0 B, sent 2.0 KiB]", MeasuredText.of(f));
    }

    @Test
    void rowGroupsSkippedByTheirStatisticsAreSaidWhereAnyWereJudged() {
        OperatorFigures f = OperatorFigures.of(1, 20_000_000L).withNodes(nodes(
                new Summary(0, 1, 10_000_000L, 1_000, 0, 0, 100).withSplits(
                        new org.oooengine.core.fragment.PartitionPipeline.SplitFigures(3, 0, 0, 0, 12, 12)),
                new Summary(100, 1, 12_000_000L, 1_000, 0, 0, 100, 0, 2L << 20, 0).withSplits(
                        new org.oooengine.core.fragment.PartitionPipeline.SplitFigures(3, 0, 0, 0, 12, 9))));
        assertEquals("  [actual rows 1, 0.020 s; nodes read 100 rows (2.0 MiB of files; 21 of 24 row groups and stripes "
                + "skipped by their statistics), slowest n2 0.012 s, peak memory 1000 B, spilled 0 B, sent 200 B]",
                MeasuredText.of(f));
    }

    @Test
    void skewedNodesGetALineEachUnderTheOperator() {
        OperatorFigures f = OperatorFigures.of(10, 2_000_000_000L).withNodes(nodes(
                new Summary(1_000_000, 5, 1_900_000_000L, 64L << 20, 3L << 20, 40_000, 1_000),
                new Summary(10_000, 5, 20_000_000L, 1L << 20, 0, 0, 1_000)));
        List<String> lines = MeasuredText.lines(List.of("  Gather [x]  (est. 10 rows)" + MeasuredText.of(f), "    [each node] Scan t"));
        assertEquals(List.of("  Gather [x]  (est. 10 rows)  [actual rows 10, 2.000 s; nodes read 1,010,000 rows, slowest n1 "
                        + "1.900 s, peak memory 64.0 MiB, spilled 3.0 MiB (40,000 rows), sent 2.0 KiB]",
                "    (by node: n1 read 1,000,000 rows, 1.900 s, peak memory 64.0 MiB, spilled 3.0 MiB (40,000 rows), sent "
                        + "1000 B; n2 read 10,000 rows, 0.020 s, peak memory 1.0 MiB, spilled 0 B, sent 1000 B)",
                "    [each node] Scan t"), lines);
    }

    @Test
    void anOperatorOfTheCoordinatorSaysWhatItHeldAndAShuffleWhatItSent() {
        assertEquals("  [actual rows 7, 0.246 s, peak memory 1.5 KiB, spilled 0 B]", MeasuredText.of(
                OperatorFigures.of(7, 246_000_000L).withHeld(new OperatorFigures.Held(1536, 0))));
        assertEquals("  [actual rows 400, 0.010 s, shuffled 512 B]", MeasuredText.of(
                OperatorFigures.of(400, 10_000_000L).withSent(new TableReader.Sent(400, 512))));
    }
}

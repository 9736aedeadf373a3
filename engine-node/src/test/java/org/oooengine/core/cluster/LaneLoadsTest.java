package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What HTAL's balancer reads of the OLTP threads: all they served, and how unevenly the partitions' threads served it. */
class LaneLoadsTest {
    @Test
    void theTotalCountsEveryThreadAndTheVarianceOnlyThePartitionsThreads() {
        NodeHtap.LaneLoads even = new NodeHtap.LaneLoads(new double[] {3, 3}, new double[] {0.5, 0});
        assertEquals(6.5, even.total(), 1e-9);
        assertEquals(0, even.partitionsVariance(), 1e-9, "idle lanes serving by id do not make warehouses look skewed");

        NodeHtap.LaneLoads skewed = new NodeHtap.LaneLoads(new double[] {7, 1}, new double[] {0, 0});
        assertEquals(9, skewed.partitionsVariance(), 1e-9);
        assertEquals(0, new NodeHtap.LaneLoads(new double[0], new double[0]).partitionsVariance());
    }
}

package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** Partitions start on their number modulo the threads; a re-split evens the threads' loads. */
class LaneAssignmentTest {
    @Test
    void aResplitMovesPartitionsOffTheBusiestThread() {
        LaneAssignment lanes = new LaneAssignment(2);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, lanes.laneOf(2)); // warehouses 2 and 4 both on thread 0, 3 alone on thread 1
            lanes.laneOf(4);
        }
        for (int i = 0; i < 10; i++) {
            assertEquals(1, lanes.laneOf(3));
        }
        String moves = lanes.resplit();
        assertNotEquals(lanes.laneOf(2), lanes.laneOf(4), moves);
        assertEquals("routing 4: 0 -> 1, routing 3: 1 -> 0", moves);
    }
}

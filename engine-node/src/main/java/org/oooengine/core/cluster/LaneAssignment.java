package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which of a node's procedure threads runs each routing number: an OLTP partition, such as a
 * TPC-C warehouse, served by one thread (seed 000's OLTP_DBP). Starts as the number modulo the
 * threads; {@link #resplit} moves partitions so that the threads carry about equal loads, counted
 * as the tasks each partition sent since the last re-split (HTAL's PartitionAssign).
 */
final class LaneAssignment {
    private final int lanes;
    private final Map<Integer, Integer> assigned = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> load = new ConcurrentHashMap<>();

    LaneAssignment(int lanes) {
        if (lanes < 1) {
            throw new IllegalArgumentException("at least one lane, not " + lanes);
        }
        this.lanes = lanes;
    }

    /** The thread routing number {@code routing} runs on; counts a task for it. */
    int laneOf(int routing) {
        load.computeIfAbsent(routing, r -> new LongAdder()).increment();
        return assigned.computeIfAbsent(routing, r -> Math.floorMod(r, lanes));
    }

    /**
     * Gives the partitions to the threads anew, the busiest first each to the least loaded thread;
     * returns the moves made ("routing 3: 1 -> 0, ..."), empty when none.
     */
    synchronized String resplit() {
        List<Map.Entry<Integer, Long>> byLoad = new ArrayList<>();
        load.forEach((routing, n) -> byLoad.add(Map.entry(routing, n.sumThenReset())));
        byLoad.sort(Map.Entry.<Integer, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        long[] carried = new long[lanes];
        StringBuilder moves = new StringBuilder();
        for (Map.Entry<Integer, Long> e : byLoad) {
            int least = 0;
            for (int l = 1; l < lanes; l++) {
                if (carried[l] < carried[least]) {
                    least = l;
                }
            }
            carried[least] += e.getValue();
            Integer before = assigned.put(e.getKey(), least);
            if (before != null && before != least) {
                moves.append(moves.length() == 0 ? "" : ", ").append("routing ").append(e.getKey()).append(": ")
                        .append(before).append(" -> ").append(least);
            }
        }
        return moves.toString();
    }
}

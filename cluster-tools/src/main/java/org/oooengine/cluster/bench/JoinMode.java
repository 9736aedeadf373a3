package org.oooengine.cluster.bench;

import com.fasterxml.jackson.annotation.JsonValue;

/** The ways a benchmark runs a join. */
public enum JoinMode {
    /** Index nested-loop join with many tasks (and I/Os) in flight. */
    OOO("ooo"),
    /** The same operators with a budget of one: one I/O at a time. */
    INORDER("inorder"),
    /**
     * In order with blocking reads on the running thread: no hand-over to I/O threads, so each read
     * costs what the device's queue-depth-1 latency costs. The tightest in-order reference.
     */
    INORDER_SYNC("inorder-sync"),
    /** The full-scan hash join a scan-based engine would run. */
    HASH("hash"),
    /**
     * On a cluster: local I/O out of order, remote probes one at a time — out-of-order execution
     * only inside each node's storage engine.
     */
    OOO_LOCAL("ooo-local"),
    /** On a cluster: Hadoop's parallel sort-merge join, a MapReduce job scanning both tables. */
    PSMJ("psmj"),
    /** On a cluster: the ooo join as a map-only MapReduce job reading through OooJoinInputFormat. */
    OOO_MR("ooo-mr"),
    /** On a cluster: the plan the optimizer picks — join order, and per join out-of-order PNLJ or PSMJ. */
    AUTO("auto");

    private final String label;

    JoinMode(String label) {
        this.label = label;
    }

    /** The scheduler budget this mode runs with, or null when it does not use the scheduler. */
    public Integer budget(int inflight) {
        return switch (this) {
            case OOO, OOO_LOCAL, OOO_MR, AUTO -> inflight;
            case INORDER, INORDER_SYNC -> 1;
            case HASH, PSMJ -> null;
        };
    }

    /** Whether this mode only exists on a cluster. */
    public boolean distributed() {
        return this == OOO_LOCAL || this == AUTO || mapReduce();
    }

    /** Whether this mode runs as a MapReduce job. */
    public boolean mapReduce() {
        return this == PSMJ || this == OOO_MR;
    }

    /** Whether this mode reads on the thread that needs the page instead of on the I/O threads. */
    public boolean synchronousReads() {
        return this == INORDER_SYNC;
    }

    /** Parses a label as users write it ({@code ooo}, {@code inorder}, {@code inorder-sync}, {@code hash}). */
    public static JoinMode parse(String label) {
        for (JoinMode m : values()) {
            if (m.label.equalsIgnoreCase(label.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + label + "' (expected one of " + java.util.Arrays.toString(values()) + ")");
    }

    @JsonValue
    @Override
    public String toString() {
        return label;
    }
}

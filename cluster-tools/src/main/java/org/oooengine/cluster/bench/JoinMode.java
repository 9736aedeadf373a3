package org.oooengine.cluster.bench;

import com.fasterxml.jackson.annotation.JsonValue;

/** The three ways a benchmark runs a join. */
public enum JoinMode {
    /** Index nested-loop join with many tasks (and I/Os) in flight. */
    OOO("ooo"),
    /** The same operators with a budget of one: one I/O at a time. */
    INORDER("inorder"),
    /** The full-scan hash join a scan-based engine would run. */
    HASH("hash");

    private final String label;

    JoinMode(String label) {
        this.label = label;
    }

    /** The scheduler budget this mode runs with, or null when it does not use the scheduler. */
    public Integer budget(int inflight) {
        return switch (this) {
            case OOO -> inflight;
            case INORDER -> 1;
            case HASH -> null;
        };
    }

    @JsonValue
    @Override
    public String toString() {
        return label;
    }
}

package org.oooengine.core.sql;

/**
 * How a join combines its sides. SEMI keeps a left row that has a match (EXISTS, IN), ANTI one
 * that has none (NOT EXISTS); ANTI_NULL_AWARE is NOT IN: no row passes if the right side has a
 * null key, nor one whose own key is null. RIGHT_SEMI and RIGHT_ANTI are SEMI and ANTI with the
 * sides' roles in a hash join swapped: the hash table holds the rows that are kept (the smaller
 * side), the other side's rows probe it, and the kept rows that found a match (or none) come out
 * after the last probe.
 */
public enum JoinKind { INNER, LEFT, RIGHT, FULL, CROSS, SEMI, ANTI, ANTI_NULL_AWARE, RIGHT_SEMI, RIGHT_ANTI;

    /** Whether the output is the left side's columns only. */
    public boolean leftOnly() {
        return this == SEMI || this == ANTI || this == ANTI_NULL_AWARE;
    }

    /** Whether the output is the right (build) side's columns only. */
    public boolean rightOnly() {
        return this == RIGHT_SEMI || this == RIGHT_ANTI;
    }
}

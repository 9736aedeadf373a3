package org.oooengine.core.sql;

/**
 * How a join combines its sides. SEMI keeps a left row that has a match (EXISTS, IN), ANTI one
 * that has none (NOT EXISTS); ANTI_NULL_AWARE is NOT IN: no row passes if the right side has a
 * null key, nor one whose own key is null.
 */
public enum JoinKind { INNER, LEFT, RIGHT, FULL, CROSS, SEMI, ANTI, ANTI_NULL_AWARE;

    /** Whether the output is the left side's columns only. */
    public boolean leftOnly() {
        return this == SEMI || this == ANTI || this == ANTI_NULL_AWARE;
    }
}

package org.oooengine.hive.sql;

/**
 * What a query's operators held at most, as the engine counts what they hold against the
 * statement's memory limits (hash tables, groups, sorted and spooled rows; not the garbage the
 * JVM has yet to collect).
 *
 * @param coordinatorPeakBytes the most the statement's operators on the coordinator held at once
 * @param nodePeakBytes        the most one of its pipelines held at once on one node
 */
public record StatementMemory(long coordinatorPeakBytes, long nodePeakBytes) {
    /** Rows of a query that know what it held: its whole result was made before the first row. */
    public interface Measured {
        StatementMemory memory();
    }
}
